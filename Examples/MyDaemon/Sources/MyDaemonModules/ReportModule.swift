import HiveKit

/// Uses the store without knowing its module: on `ready` and on the custom event `stats`
/// it resolves the ``KeyValueStore`` service and performs `store.count`; on `clear` it
/// opens `hive://store/clear`.
public struct ReportModule: Module {
    /// A reporter.
    public init() {}

    /// Reports once the hive is ready.
    public func ready(_ context: ModuleContext) async throws {
        try await report(context)
    }

    /// `stats` reports; `clear` empties the store through its route.
    public func custom(_ context: ModuleContext) async throws {
        switch context.customEventName {
        case "stats": try await report(context)
        case "clear": try await context.router.open("hive://store/clear")
        default: break
        }
    }

    private func report(_ context: ModuleContext) async throws {
        let store = try context.services.resolve(KeyValueStore.self)
        let greeting = await store.value(for: "greeting") ?? "-"
        let count = try await context.mediator.perform(target: "store", action: "count", as: Int.self)
        context.logger.info("store holds \(count) key\(count == 1 ? "" : "s"); greeting '\(greeting)'")
    }
}
