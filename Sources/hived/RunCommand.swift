import ArgumentParser
import HiveDaemon
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

extension RunCommand {
    /// A plain run: `hived` or `hived run`, each with or without `--config PATH` or
    /// `--config=PATH`.
    struct PlainRun {
        /// The `--config` path; `nil` when none was given.
        let configPath: String?
    }

    /// `arguments` (without the program name) as a plain run, read without
    /// ArgumentParser: its reflection is about half of the instructions hived runs before
    /// `READY=1` with no modules. `nil` for any other command line, which
    /// ``HivedCommand`` parses (help, version, check-config, errors).
    static func plainRun(_ arguments: [String]) -> PlainRun? {
        let rest = arguments.first == "run" ? Array(arguments.dropFirst()) : arguments
        if rest.isEmpty { return PlainRun(configPath: nil) }
        if rest.count == 1, rest[0].hasPrefix("--config="), rest[0].count > 9 {
            return PlainRun(configPath: String(rest[0].dropFirst(9)))
        }
        if rest.count == 2, rest[0] == "--config", !rest[1].isEmpty, !rest[1].hasPrefix("-") {
            return PlainRun(configPath: rest[1])
        }
        return nil
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
