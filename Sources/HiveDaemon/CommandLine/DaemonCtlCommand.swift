#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser

/// `NAME ctl …`: asks the running daemon over its control socket (see ``ControlTool``).
struct DaemonCtlCommand<Program: DaemonProgram>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "ctl",
            abstract: "Ask the running daemon over its control socket (Varlink io.hivekit.Daemon).",
            discussion: """
                The socket is --socket, else $RUNTIME_DIRECTORY/control, else \
                \(Program.identity.runtimeDirectory)/control. Only root, the daemon's user and \
                members of control.group may use it.

                Exit status: 0; 1 when the daemon reported an error (or no route handled an opened \
                URL); 66 when no route matches the URL or there is no such action; 67 when it is \
                not exported; 69 when the socket cannot be reached or turns the connection away; 70 \
                when the route's or action's handler failed; 77 when access is denied; 78 when \
                reload found the configuration invalid; 64 for a usage error (nothing was sent).
                """,
            subcommands: [
                Status.self, Blame.self, Profile.self, Events.self, Send.self, Reload.self, LogLevel.self,
                Routes.self, Actions.self, Services.self, Open.self, Perform.self, Metrics.self,
            ])
    }

    /// `--json` and `--socket` given before the subcommand (`ctl --json status`).
    @OptionGroup var options: Options

    /// `--json` and `--socket`, shared by every subcommand.
    struct Options: ParsableArguments {
        @Flag(help: "Print the raw Varlink replies (JSON), one per line.")
        var json = false

        @Option(help: "The control socket.")
        var socket: String?

        func validate() throws {
            if socket?.isEmpty == true { throw ValidationError("--socket needs a path, not an empty string") }
        }

        /// Runs `command` with these options, else those given before the subcommand.
        func run(_ command: ControlTool.Command, before given: Options) throws {
            let tool = ControlTool(
                identity: Program.identity, socket: socket ?? given.socket, json: json || given.json,
                runtimeDirectory: SystemdEnvironment.capture().runtimeDirectory,
                mainPID: getenv("MAINPID").map { String(cString: $0) })
            let status = tool.run(command)
            if status != 0 { throw ExitCode(status) }
        }
    }

    struct Status: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: "Phase, uptime and every module with its state.")
        }
        @OptionGroup var options: Options
        @ParentCommand var ctl: DaemonCtlCommand
        func run() throws { try options.run(.status, before: ctl.options) }
    }

    struct Blame: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: "Every module's handlers by time spent, slowest first.")
        }
        @OptionGroup var options: Options
        @ParentCommand var ctl: DaemonCtlCommand
        func run() throws { try options.run(.blame, before: ctl.options) }
    }

    struct Profile: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: "Start-up calls and their critical path.")
        }
        @OptionGroup var options: Options
        @ParentCommand var ctl: DaemonCtlCommand
        func run() throws { try options.run(.profile, before: ctl.options) }
    }

    struct Events: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: "Events delivered so far; with --follow, every event and handler outcome as it happens.")
        }
        @OptionGroup var options: Options
        @ParentCommand var ctl: DaemonCtlCommand
        @Flag(name: [.short, .long], help: "Stream events until interrupted.")
        var follow = false
        func run() throws { try options.run(.events(follow: follow), before: ctl.options) }
    }

    struct Send: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: "Deliver custom(NAME) with parameters to every module; wait until all handled it.")
        }
        @OptionGroup var options: Options
        @ParentCommand var ctl: DaemonCtlCommand
        @Argument(help: "The custom event's name.")
        var name: String
        @Argument(help: "Parameters, as KEY=VALUE.")
        var parameters: [String] = []

        func validate() throws { _ = try DaemonCtlCommand.values(of: parameters) }

        func run() throws {
            try options.run(.send(name: name, parameters: DaemonCtlCommand.values(of: parameters)), before: ctl.options)
        }
    }

    /// `KEY=VALUE` arguments as a map (the last of a repeated key wins).
    ///
    /// - Throws: a `ValidationError` naming an argument without `=`.
    static func values(of arguments: [String]) throws -> [String: String] {
        var values: [String: String] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else { throw ValidationError("'\(argument)' is not KEY=VALUE") }
            values[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
        }
        return values
    }

    struct Reload: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: "Reload the configuration and print what changed, or FILE:LINE: message (exit 78).")
        }
        @OptionGroup var options: Options
        @ParentCommand var ctl: DaemonCtlCommand
        func run() throws { try options.run(.reload, before: ctl.options) }
    }

    struct LogLevel: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "log-level", abstract: "Set the log level (trace … critical) until the next reload.")
        }
        @OptionGroup var options: Options
        @ParentCommand var ctl: DaemonCtlCommand
        @Argument(help: "trace, debug, info, notice, warning, error or critical.")
        var level: String

        func validate() throws {
            guard HiveLogging.parseLevel(level) != nil else {
                throw ValidationError("'\(level)' is not a log level: trace, debug, info, notice, warning, error or critical")
            }
        }

        func run() throws { try options.run(.logLevel(level), before: ctl.options) }
    }

    struct Routes: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: "Registered routes, with their owner module.")
        }
        @OptionGroup var options: Options
        @ParentCommand var ctl: DaemonCtlCommand
        func run() throws { try options.run(.routes, before: ctl.options) }
    }

    struct Actions: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: "Registered actions, with their owner module.")
        }
        @OptionGroup var options: Options
        @ParentCommand var ctl: DaemonCtlCommand
        func run() throws { try options.run(.actions, before: ctl.options) }
    }

    struct Services: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: "Registered services, with their owner module.")
        }
        @OptionGroup var options: Options
        @ParentCommand var ctl: DaemonCtlCommand
        func run() throws { try options.run(.services, before: ctl.options) }
    }

    struct Open: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: "Open a URL through the daemon's exported routes and print what its handler returned.")
        }
        @OptionGroup var options: Options
        @ParentCommand var ctl: DaemonCtlCommand
        @Argument(help: "The URL, e.g. 'hive://heartbeat/status'.")
        var url: String
        @Argument(help: "Parameters for the handler, as KEY=VALUE.")
        var parameters: [String] = []

        func validate() throws { _ = try DaemonCtlCommand.values(of: parameters) }

        func run() throws {
            try options.run(.open(url: url, parameters: DaemonCtlCommand.values(of: parameters)), before: ctl.options)
        }
    }

    struct Perform: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: "Perform an exported action of a target and print what it returned.")
        }
        @OptionGroup var options: Options
        @ParentCommand var ctl: DaemonCtlCommand
        @Argument(help: "The target: a module, or module.Target.")
        var target: String
        @Argument(help: "The action's name.")
        var action: String
        @Argument(help: "Parameters for the action, as KEY=VALUE.")
        var parameters: [String] = []

        func validate() throws { _ = try DaemonCtlCommand.values(of: parameters) }

        func run() throws {
            let values = try DaemonCtlCommand.values(of: parameters)
            try options.run(.perform(target: target, action: action, parameters: values), before: ctl.options)
        }
    }

    struct Metrics: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: "Metrics in the Prometheus text format.")
        }
        @OptionGroup var options: Options
        @ParentCommand var ctl: DaemonCtlCommand
        func run() throws { try options.run(.metrics, before: ctl.options) }
    }
}
