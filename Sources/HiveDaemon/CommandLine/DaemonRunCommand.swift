import ArgumentParser

/// `NAME run [--config PATH]`: runs the daemon until `SIGTERM` or `SIGINT`.
///
/// ``DaemonCommand/main()`` runs it through ``HiveDaemon/main(_:)``, which keeps the main
/// thread as the signal reader; it is never run as a plain command.
struct DaemonRunCommand<Program: DaemonProgram>: ParsableCommand {
    static var configuration: CommandConfiguration {
        let identity = Program.identity
        return CommandConfiguration(
            commandName: "run",
            abstract: "Run the daemon (the default command).",
            discussion: Program.embeddedConfiguration == nil
                ? "Without --config, \(identity.name) reads \(identity.configurationPath)."
                : "Without --config, \(identity.name) reads \(identity.configurationPath) if it exists, else its embedded default.")
    }

    @Option(name: .long, help: "The configuration file (YAML).")
    var config: String?
}
