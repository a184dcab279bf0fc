import ArgumentParser
import HiveKit
#if canImport(Glibc)
import Glibc
#endif

/// The command line of a ``DaemonProgram``: `run` (the default), `check-config`, the
/// program's own ``DaemonProgram/subcommands``, `--help` and `--version`.
///
/// Exit statuses are ``DaemonExitCode``'s; a usage error exits 64 (`EX_USAGE`).
public struct DaemonCommand<Program: DaemonProgram>: ParsableCommand {
    /// The commands every daemon has; the program's own follow them.
    static var builtinSubcommands: [any ParsableCommand.Type] {
        [DaemonRunCommand<Program>.self, DaemonCheckConfigCommand<Program>.self, DaemonCtlCommand<Program>.self]
    }

    /// The program's name, abstract, version and subcommands.
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Program.identity.name,
            abstract: Program.abstract,
            discussion: """
                Run the daemon with `\(Program.identity.name) [run] [--config PATH]` (see \
                `\(Program.identity.name) help run`).

                Exit status: 0 after a clean stop; 69 when a module asked for the stop on a \
                failure (e.g. a service that ended on its own); 70 when a module failed setup or \
                init (the modules already set up were torn down); 75 when the stop budget ran \
                out; 78 for a configuration that cannot start; 64 for a usage error.
                """,
            version: Program.identity.version,
            subcommands: builtinSubcommands + Program.subcommands,
            defaultSubcommand: DaemonRunCommand<Program>.self)
    }

    /// Parses nothing of its own: every command is a subcommand.
    public init() {}

    /// Parses the process's command line and runs the command, from a `main` of the
    /// program's own.
    ///
    /// First, while the calling thread is the only one, it blocks the signals the daemon
    /// reads (``DaemonSignals/blockInCallingThread()``) and captures the systemd variables.
    /// A plain run (`NAME`, `NAME run`, with or without `--config PATH`) is read without
    /// ArgumentParser, for start-up time, and never returns: the calling thread becomes the
    /// signal reader (``HiveDaemon/main(_:)``). Any other command unblocks the signals
    /// first, so `SIGINT` and `SIGTERM` end it like any tool, then returns or exits.
    ///
    /// Called from a `main` of the program's own, it leaves swift-log to that `main`: the
    /// daemon logs through the process's handler (the one bootstrapped before, or
    /// swift-log's default) and never calls `LoggingSystem.bootstrap`. ``DaemonProgram``'s
    /// default `main` is the one that bootstraps HiveDaemon's handlers.
    public static func main() {
        main(mayBootstrapLogging: false)
    }

    /// ``main()``; `mayBootstrapLogging` only when the caller is the process's entry point
    /// (``DaemonProgram``'s default `main`), before any code of the program ran.
    static func main(mayBootstrapLogging: Bool) {
        DaemonSignals.blockInCallingThread()
        let systemd = SystemdEnvironment.capture()
        let path = configurationPathOrExit(Array(CommandLine.arguments.dropFirst())) {
            DaemonSignals.unblockInCallingThread()
        }
        var options = Program.options(configurationPath: path, systemd: systemd)
        options.mayBootstrapLogging = mayBootstrapLogging
        HiveDaemon.main(options)
    }

    /// Parses `arguments`. For a run, returns the file it reads (`nil`: the embedded
    /// configuration; see `configurationPath(explicit:)`). Any other command
    /// (`check-config`, `ctl`, the program's own, `--help`, `--version`, a usage error)
    /// runs here after `beforeCommand`, and the process exits with its status.
    package static func configurationPathOrExit(_ arguments: [String], beforeCommand: () -> Void = {}) -> String? {
        if let plain = RunCommandLine(arguments) { return configurationPath(explicit: plain.configPath) }
        do {
            var command = try parseAsRoot(arguments)
            if let run = command as? DaemonRunCommand<Program> { return configurationPath(explicit: run.config) }
            beforeCommand()
            try command.run()
        } catch {
            guard namesNoCommand(arguments) else { exit(withError: error) }
            // `NAME bogus` fails in the default `run`, whose usage would be shown: the
            // program's own says which commands there are.
            var standardError = StandardError()
            print(
                "Error: \(message(for: error))\nUsage: \(usageString())\n  See '\(Program.identity.name) --help' for more information.",
                to: &standardError)
            exit(withError: ExitCode.validationFailure)
        }
        exit()
    }

    /// Whether `arguments` start with a word that is no command (`NAME bogus`), rather than
    /// with an option of `run` or a command.
    static func namesNoCommand(_ arguments: [String]) -> Bool {
        guard let first = arguments.first, !first.hasPrefix("-"), first != "help" else { return false }
        return !configuration.subcommands.contains { $0._commandName == first || $0.configuration.aliases.contains(first) }
    }

    /// The file a run reads: `explicit`, else the identity's default file when it exists
    /// or when the program embeds no configuration (a missing file is then the error);
    /// `nil` means the embedded configuration.
    static func configurationPath(explicit: String?) -> String? {
        if let explicit { return explicit }
        let path = Program.identity.configurationPath
        return Program.embeddedConfiguration == nil || access(path, F_OK) == 0 ? path : nil
    }
}
