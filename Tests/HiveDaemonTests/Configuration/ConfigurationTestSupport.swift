@testable import HiveDaemon
import HiveKit

/// Parses `text` as a file named `test.yaml`, with the overrides of the daemon named
/// `hived` (`HIVED_*`) that `environment` holds.
func parseConfiguration(
    _ text: String, catalog: ModuleCatalog? = nil, environment: [String: String] = [:]
) throws(HiveError) -> DaemonConfiguration {
    let overrides = DaemonIdentity(name: "hived", version: "0").overrides(in: environment)
    return try ConfigurationLoader.parse(text, path: "test.yaml", catalog: catalog, overrides: overrides)
}

/// The error parsing `text` throws, or `nil` when it parses.
func configurationError(
    _ text: String, catalog: ModuleCatalog? = nil, environment: [String: String] = [:]
) -> HiveError? {
    do {
        _ = try parseConfiguration(text, catalog: catalog, environment: environment)
        return nil
    } catch {
        return error
    }
}

/// A module that does nothing, for catalogs in tests.
struct InertModule: Module {}

/// A catalog that knows `probe` and `demo`.
func testCatalog() -> ModuleCatalog {
    var catalog = ModuleCatalog()
    catalog.register("probe") { _ in InertModule() }
    catalog.register("demo") { _ in InertModule() }
    return catalog
}
