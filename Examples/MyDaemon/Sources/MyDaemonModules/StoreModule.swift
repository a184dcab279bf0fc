import HiveKit

/// Keeps the data: offers the ``KeyValueStore`` service, the action `store.count` and the
/// routes `hive://store/value/:key` and `hive://store/clear`. The action and the first
/// route are exported (`mydaemon ctl perform store count`, `mydaemon ctl open
/// hive://store/value/greeting`); clearing the store stays the modules' own business.
///
/// Settings: `greeting` (the value stored under `greeting` at start and at each reload).
public struct StoreModule: Module {
    private let store = MemoryStore()

    /// Checks the settings when the configuration is loaded.
    public init(settings: Settings) throws(HiveError) {
        _ = try settings.string("greeting")
    }

    /// Offers the store, its action and its routes.
    public func setup(_ context: ModuleContext) async throws {
        let store = self.store
        await store.set(try context.settings.string("greeting") ?? "hello", for: "greeting")
        try context.services.register(KeyValueStore.self) { store }
        try context.mediator.register("count", exported: true) { _ in await store.count() }
        try context.router.register("hive://store/value/:key", exported: true, producing: String.self) { request in
            await store.value(for: try request.parameter("key"))
        }
        try context.router.register("hive://store/clear") { _ in
            let dropped = await store.clear()
            context.logger.info("cleared \(dropped) keys")
            return true
        }
    }

    /// Stores the new greeting.
    public func reload(_ context: ModuleContext) async throws {
        await store.set(try context.settings.string("greeting") ?? "hello", for: "greeting")
    }

    /// Closes the store.
    public func teardown(_ context: ModuleContext) async throws {
        context.logger.info("store closed")
    }
}
