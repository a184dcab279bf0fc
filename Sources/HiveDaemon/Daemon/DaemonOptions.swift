import HiveKit
/// What ``HiveDaemon`` runs: where the configuration comes from, which module and
/// service types it can build, and the systemd variables captured at start.
public struct DaemonOptions: Sendable {
    /// The configuration file; `nil` runs ``embeddedConfiguration``.
    public var configurationPath: String?
    /// YAML used when no file is given (a reload re-reads the same text).
    public var embeddedConfiguration: String
    /// The module types configuration files may name.
    public var catalog: ModuleCatalog
    /// The service implementations configuration files may name (`services:`).
    public var serviceCatalog: ServiceCatalog
    /// The process environment, for `HIVED_*` overrides of the configuration.
    public var environment: [String: String]
    /// `NOTIFY_SOCKET`, `WATCHDOG_*`, `JOURNAL_STREAM`…, read at the top of `main`.
    public var systemd: SystemdEnvironment

    /// Options for a daemon; see each property.
    public init(
        configurationPath: String?,
        embeddedConfiguration: String,
        catalog: ModuleCatalog,
        serviceCatalog: ServiceCatalog = ServiceCatalog(),
        environment: [String: String],
        systemd: SystemdEnvironment
    ) {
        self.configurationPath = configurationPath
        self.embeddedConfiguration = embeddedConfiguration
        self.catalog = catalog
        self.serviceCatalog = serviceCatalog
        self.environment = environment
        self.systemd = systemd
    }

    /// Reads and validates the whole configuration, from the file or the embedded text:
    /// syntax, keys, module types, each module's settings (every module, enabled or not,
    /// is built once through the catalog, then dropped) and service implementations.
    ///
    /// - Throws: ``HiveError`` with `file:line`; nothing is applied.
    public func loadConfiguration() throws(HiveError) -> DaemonConfiguration {
        let configuration: DaemonConfiguration
        if let configurationPath {
            configuration = try DaemonConfiguration.load(
                path: configurationPath, catalog: catalog, environment: environment)
        } else {
            configuration = try DaemonConfiguration.parse(
                embeddedConfiguration, path: nil, catalog: catalog, environment: environment)
        }
        _ = try catalog.registrations(for: configuration.modules)
        for disabled in configuration.modules where !disabled.isEnabled { _ = try catalog.instantiate(disabled) }
        for (index, service) in configuration.services.enumerated() {
            do {
                try serviceCatalog.validate(service)
            } catch {
                throw HiveError(
                    error.code, location: error.location ?? service.location,
                    "services[\(index)]: \(error.message)", underlying: error.underlying)
            }
        }
        return configuration
    }
}
