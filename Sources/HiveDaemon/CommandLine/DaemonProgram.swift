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
///         catalog.register("store") { descriptor in try Store(settings: descriptor.settings) }
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
    /// Who owns swift-log's bootstrap; ``DaemonLogging/bootstrap`` by default, since the
    /// program's `main` is the daemon's. A program that overrides `main` to bootstrap
    /// swift-log's own `StreamLogHandler` must say ``DaemonLogging/cooperate``.
    static var logging: DaemonLogging { get }
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
    /// ``DaemonLogging/bootstrap``.
    public static var logging: DaemonLogging { .bootstrap }

    /// The program's entry point: parses the command line and runs the command; never
    /// returns when it runs the daemon (see ``DaemonCommand/main()``).
    public static func main() {
        DaemonCommand<Self>.main()
    }

    /// The options the daemon runs with: the program's identity, types and logging, the
    /// configuration at `configurationPath` (`nil`: the embedded one), the overrides of
    /// this process's environment, and `systemd`.
    public static func options(configurationPath: String?, systemd: SystemdEnvironment) -> DaemonOptions {
        DaemonOptions(
            identity: identity,
            configurationPath: configurationPath,
            embeddedConfiguration: embeddedConfiguration,
            catalog: modules,
            serviceCatalog: services,
            systemd: systemd,
            logging: logging)
    }
}
