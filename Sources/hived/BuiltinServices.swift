import HiveKit

/// The service implementations every hived configuration can name under `services:`.
enum BuiltinServices {
    /// `WallClock` with the `SystemClock` implementation.
    static let catalog: ServiceCatalog = {
        var catalog = ServiceCatalog()
        catalog.register(WallClock.self, service: "WallClock", implementation: "SystemClock") { SystemClock() }
        return catalog
    }()
}
