import HiveKit

/// Keeps the data: offers the ``KeyValueStore`` service, the action `store.count`, and the
/// route `hive://store/snapshot`; the custom event `snapshot` (kvd maps `SIGUSR1` to it)
/// and `teardown` write the snapshot.
///
/// ## Settings
/// - `snapshot`: the snapshot file, read at `setup` if it exists; none: memory only.
public struct StoreModule: Module {
    private let store: SnapshotStore

    /// Checks the settings when the configuration is loaded.
    public init(settings: Settings) throws(HiveError) {
        store = SnapshotStore(path: try settings.string("snapshot"))
    }

    /// Reads the snapshot, then offers the store, its action and its route.
    public func setup(_ context: ModuleContext) async throws {
        var moduleLogger = context.logger
        moduleLogger[metadataKey: "event"] = nil  // the route runs later, outside setup
        let (store, logger) = (self.store, moduleLogger)
        let loaded = try await store.load()
        if let path = store.path { logger.info("loaded \(loaded) keys from \(path)") }
        try context.services.register(KeyValueStore.self) { store }
        try context.mediator.register("count") { _ in await store.count() }
        try context.router.register("hive://store/snapshot") { request in
            let written = try await store.snapshot()
            logger.info("snapshot of \(written) keys (\(request["reason"] ?? "asked"))")
            return true
        }
    }

    /// `snapshot` writes the snapshot, through the route.
    public func custom(_ context: ModuleContext) async throws {
        guard context.customEventName == "snapshot" else { return }
        try await context.router.open("hive://store/snapshot?reason=custom%20event")
    }

    /// Writes the last snapshot and closes the store.
    public func teardown(_ context: ModuleContext) async throws {
        let written = try await store.snapshot()
        context.logger.info("store closed: \(written) keys in \(store.path ?? "memory only")")
    }
}
