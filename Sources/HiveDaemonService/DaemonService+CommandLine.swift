import HiveDaemon
import HiveKit

extension DaemonService {
    /// The daemon `program`'s command line asks to run, as a service for the caller's
    /// `ServiceGroup`; every other command runs here and ends the process.
    ///
    /// The command line is the one ``/HiveDaemon/DaemonProgram`` gives, so the same
    /// executable offers it whichever way it runs its daemon:
    ///
    /// - `NAME [run] [--config PATH]` returns the service, with `program`'s identity, module
    ///   and service types, the file (without `--config`, ``/HiveDaemon/DaemonIdentity/configurationPath``
    ///   if it exists or the program embeds no configuration, else the embedded one), and the
    ///   systemd variables captured now.
    /// - `NAME check-config PATH`, `NAME ctl COMMAND`, the program's own subcommands,
    ///   `--help`, `--version` and a usage error (64) run now and exit with their status,
    ///   as with ``/HiveDaemon/DaemonProgram``'s `main`.
    ///
    /// Call it first in `main`, before starting any task; `program` need not be the
    /// executable's `@main` type:
    ///
    /// ```swift
    /// let daemon = DaemonService.parseOrExit(MyDaemon.self)
    /// let group = ServiceGroup(configuration: .init(services: [.init(service: daemon)],
    ///                          gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    /// try await group.run()
    /// ```
    public static func parseOrExit<Program: DaemonProgram>(_ program: Program.Type) -> DaemonService {
        let path = DaemonCommand<Program>.configurationPathOrExit(Array(CommandLine.arguments.dropFirst()))
        return DaemonService(Program.options(configurationPath: path, systemd: .capture()))
    }
}
