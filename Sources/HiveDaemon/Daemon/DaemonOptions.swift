import HiveKit

/// What ``HiveDaemon`` runs: the daemon's identity, where the configuration comes from,
/// which module and service types it can build, and the systemd variables captured at start.
public struct DaemonOptions: Sendable {
    /// The daemon's name and version: log label, journal identifier, error prefix,
    /// environment overrides.
    public var identity: DaemonIdentity
    /// The configuration file; `nil` runs ``embeddedConfiguration``.
    public var configurationPath: String?
    /// YAML used when no file is given (a reload re-reads the same text); `nil` when the
    /// daemon has none, so that a file is needed.
    public var embeddedConfiguration: String?
    /// The module types configuration files may name: those given, plus every type
    /// declared with an annotation (``/HiveKit/HiveAnnotations``).
    public var catalog: ModuleCatalog
    /// The service implementations configuration files may name (`services:`): those
    /// given, plus every implementation declared with an annotation.
    public var serviceCatalog: ServiceCatalog
    /// The environment variables that override the configuration (`NAME_LOG_LEVEL`…).
    public var overrides: ConfigurationOverrides
    /// `NOTIFY_SOCKET`, `WATCHDOG_*`, `JOURNAL_STREAM`…, read at the top of `main`.
    public var systemd: SystemdEnvironment
    /// Whether the daemon may bootstrap swift-log: only ``DaemonProgram``'s own `main`,
    /// the process's entry point, sets it; otherwise the daemon logs through the process's
    /// handler (see ``HiveLogging/setUp(identity:target:level:environment:mayBootstrap:)``).
    var mayBootstrapLogging = false

    /// Why the annotations could not be added to the catalogs (a duplicate, a malformed
    /// entry); ``loadConfiguration()`` throws it.
    let annotationError: HiveError?

    /// Options for a daemon; see each property. The annotations of the executable and
    /// its loaded shared objects are added to the catalogs here.
    ///
    /// - Parameters:
    ///   - identity: the daemon's name and version.
    ///   - configurationPath: the file to read; `nil` runs `embeddedConfiguration`. A
    ///     program that wants `/etc/NAME/NAME.yaml` passes ``DaemonIdentity/configurationPath``.
    ///   - embeddedConfiguration: the YAML run when `configurationPath` is `nil`; with
    ///     neither, loading the configuration fails.
    ///   - catalog: the module types the configuration may name.
    ///   - serviceCatalog: the service implementations it may name under `services:`.
    ///   - environment: the variables to read the overrides from; `nil` (the default)
    ///     reads this process's, `[:]` turns them off.
    ///   - systemd: by default captured now; capture it at the top of `main` instead, before
    ///     any thread exists, when the daemon is not started by ``DaemonProgram``.
    public init(
        identity: DaemonIdentity,
        configurationPath: String? = nil,
        embeddedConfiguration: String? = nil,
        catalog: ModuleCatalog,
        serviceCatalog: ServiceCatalog = ServiceCatalog(),
        environment: [String: String]? = nil,
        systemd: SystemdEnvironment = .capture()
    ) {
        self.identity = identity
        self.configurationPath = configurationPath
        self.embeddedConfiguration = embeddedConfiguration
        self.catalog = catalog
        self.serviceCatalog = serviceCatalog
        do {
            try self.catalog.registerAnnotations()
            try self.serviceCatalog.registerAnnotations()
            annotationError = nil
        } catch {
            annotationError = error
        }
        self.overrides = environment.map(identity.overrides(in:)) ?? identity.processOverrides()
        self.systemd = systemd
    }

    /// Reads and validates the whole configuration, from the file or the embedded text:
    /// syntax, keys, module types, each module's settings (every module, enabled or not,
    /// is built once through the catalog, then dropped) and service implementations.
    ///
    /// - Throws: ``/HiveKit/HiveError`` with `file:line`; nothing is applied. A malformed or
    ///   duplicate annotation is an error too, naming its places.
    func loadConfiguration() throws(HiveError) -> DaemonConfiguration {
        if let annotationError { throw annotationError }
        let configuration: DaemonConfiguration
        if let configurationPath {
            configuration = try DaemonConfiguration.load(
                path: configurationPath, catalog: catalog, overrides: overrides, daemonName: identity.name)
        } else if let embeddedConfiguration {
            configuration = try DaemonConfiguration.parse(
                embeddedConfiguration, path: nil, catalog: catalog, overrides: overrides, daemonName: identity.name)
        } else {
            throw HiveError(.invalidConfiguration, "no configuration file given and none embedded")
        }
        _ = try catalog.instantiate(configuration.modules)
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
