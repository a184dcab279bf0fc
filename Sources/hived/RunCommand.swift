import ArgumentParser
import HiveKit
#if canImport(Glibc)
import Glibc
#endif

/// `hived run [--config PATH]`: runs the daemon until SIGTERM or SIGINT.
///
/// `main.swift` runs it through ``HiveDaemon/main(_:)``, which keeps the main thread as
/// the signal reader.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon (the default command).",
        discussion: """
            Without --config, hived reads \(ConfigurationSource.systemPath) if it exists, \
            else an embedded default that runs demo modules.
            """
    )

    @Option(name: .long, help: "The configuration file (YAML).")
    var config: String?

    /// What the daemon runs: the chosen configuration and the built-in module types.
    func daemonOptions(systemd: SystemdEnvironment) -> DaemonOptions {
        Self.options(configurationPath: ConfigurationSource.path(explicit: config), systemd: systemd)
    }

    /// The built-in module and service types, with the configuration at `configurationPath`
    /// (`nil`: the embedded default).
    static func options(configurationPath: String?, systemd: SystemdEnvironment) -> DaemonOptions {
        DaemonOptions(
            configurationPath: configurationPath,
            embeddedConfiguration: EmbeddedConfiguration.yaml,
            catalog: BuiltinModules.catalog,
            serviceCatalog: BuiltinServices.catalog,
            environment: ProcessEnvironment.current(),
            systemd: systemd)
    }
}

/// Where the daemon's configuration comes from.
enum ConfigurationSource {
    /// The file a packaged hived reads when no --config is given.
    static let systemPath = "/etc/hived/hived.yaml"

    /// `explicit`, else ``systemPath`` if it exists, else `nil` (the embedded default).
    static func path(explicit: String?) -> String? {
        if let explicit { return explicit }
        return access(systemPath, F_OK) == 0 ? systemPath : nil
    }
}
