import ArgumentParser
import HiveKit

/// A daemon's program: its identity and module types; its command line and `main` come
/// with it.
///
/// ```swift
/// @main
/// struct MyDaemon: DaemonProgram {
///     static let identity = DaemonIdentity(name: "mydaemon", version: "1.2.0")
///     static let modules: ModuleCatalog = {
///         var catalog = ModuleCatalog()
///         catalog.register("store", settings: ["path"]) { descriptor in try Store(settings: descriptor.settings) }
///         return catalog
///     }()
/// }
/// ```
///
/// The command line it gets (see ``DaemonCommand``):
///
/// ```
/// mydaemon [run] [--config PATH]    run the daemon (PATH: /etc/mydaemon/mydaemon.yaml)
/// mydaemon check-config PATH        validate a file: exit 0, or 78 with PATH:LINE: message
/// mydaemon ctl COMMAND              ask the running daemon over its control socket
/// mydaemon --help | --version       and help for each subcommand
/// ```
///
/// Every requirement but ``identity`` and ``modules`` has a default.
///
/// A program that runs the daemon inside a ServiceGroup keeps this command line:
/// HiveDaemonService's `DaemonService.parseOrExit(MyDaemon.self)` parses it, runs every
/// command but `run` and hands back the daemon as a service for the group.
///
/// **Logging.** The default `main` is the process's entry point, so nothing can have
/// bootstrapped swift-log before it: it bootstraps it with HiveDaemon's handlers (journal
/// or stderr, per `log.target`), and every `Logger(label:)` of the process uses them. A
/// program with a handler of its own bootstraps it in a `main` of its own, which then
/// hands over to the command line; the daemon and its modules log through that handler
/// (at `log.level`), and HiveDaemon never calls `LoggingSystem.bootstrap`:
///
/// ```swift
/// static func main() {
///     LoggingSystem.bootstrap(StreamLogHandler.standardOutput)
///     DaemonCommand<Self>.main()
/// }
/// ```
public protocol DaemonProgram {
    /// The daemon's name and version.
    static var identity: DaemonIdentity { get }
    /// The module types its configuration may name.
    static var modules: ModuleCatalog { get }
    /// The service implementations its configuration may name under `services:`; none by
    /// default.
    static var services: ServiceCatalog { get }
    /// The configuration run when no `--config` is given and
    /// ``DaemonIdentity/configurationPath`` does not exist; `nil` (the default) makes that
    /// file necessary.
    static var embeddedConfiguration: String? { get }
    /// What the daemon does, in one line, for `--help`.
    static var abstract: String { get }
    /// Commands besides `run` and `check-config`, e.g. a client of the daemon; none by
    /// default. They run as plain commands: signals are not read, and `SIGINT` ends them.
    static var subcommands: [any ParsableCommand.Type] { get }
}

extension DaemonProgram {
    /// No service implementations.
    public static var services: ServiceCatalog { ServiceCatalog() }
    /// No embedded configuration: the daemon needs a file.
    public static var embeddedConfiguration: String? { nil }
    /// `Runs the NAME daemon.`
    public static var abstract: String { "Runs the \(identity.name) daemon." }
    /// No subcommands of the program's own.
    public static var subcommands: [any ParsableCommand.Type] { [] }

    /// The program's entry point: parses the command line and runs the command; never
    /// returns when it runs the daemon (see ``DaemonCommand/main()``). Being the entry
    /// point, it lets the daemon bootstrap swift-log with HiveDaemon's handlers.
    public static func main() {
        DaemonCommand<Self>.main(mayBootstrapLogging: true)
    }

    /// The options the daemon runs with: the program's identity and types, the
    /// configuration at `configurationPath` (`nil`: the embedded one), the overrides of
    /// this process's environment, and `systemd`.
    package static func options(configurationPath: String?, systemd: SystemdEnvironment) -> DaemonOptions {
        DaemonOptions(
            identity: identity,
            configurationPath: configurationPath,
            embeddedConfiguration: embeddedConfiguration,
            catalog: modules,
            serviceCatalog: services,
            systemd: systemd)
    }
}
