@testable import HiveDaemon
import HiveKit

/// Parses `text` as a file named `test.yaml` for the daemon named `hived`: its overrides
/// (`HIVED_*`) that `environment` holds, and its name in messages.
func parseConfiguration(
    _ text: String, catalog: ModuleCatalog? = nil, environment: [String: String] = [:]
) throws(HiveError) -> DaemonConfiguration {
    let identity = DaemonIdentity(name: "hived", version: "0")
    return try DaemonConfiguration.parse(
        text, path: "test.yaml", catalog: catalog, overrides: identity.overrides(in: environment), daemonName: identity.name)
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

/// A catalog that knows `probe` and `demo`, taking any settings.
func testCatalog() -> ModuleCatalog {
    var catalog = ModuleCatalog()
    catalog.register("probe", settings: .any) { _ in InertModule() }
    catalog.register("demo", settings: .any) { _ in InertModule() }
    return catalog
}
