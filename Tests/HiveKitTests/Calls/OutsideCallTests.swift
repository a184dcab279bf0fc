import HiveKit
import Synchronization
import TestSupport
import Testing

/// A module whose routes and actions are exported in code, by its descriptor, or not at all.
struct Cache: Module {
    func setup(_ context: ModuleContext) async throws {
        try context.router.register("hive://cache/flush/:region", exported: true) { request in
            request["region"] != "none"
        }
        try context.router.register("hive://cache/size/:region", producing: Int.self) { request in
            try request.parameter("region", as: String.self).count * (try request.parameter("factor", as: Int.self))
        }
        try context.router.register("hive://cache/drop") { _ in true }
        try context.router.register("hive://cache/broken", exported: true) { _ in throw TestFailure("disk full") }
        try context.mediator.register("count", exported: true) { request in try request.parameter("base", as: Int.self) + 1 }
        try context.mediator.register("stats") { _ in ["hits": 3] }
        try context.mediator.register("wipe") { _ in () }
        try context.mediator.setNotFoundAction { _ in "fallback" }
    }
}

/// Calls from outside the process reach exported routes and actions only, with text
/// parameters, and never the unmatched or not-found handlers.
@Suite struct OutsideCallTests {
    func startedHive() async throws -> Hive {
        let descriptor = ModuleDescriptor(
            name: "cache", exportedRoutes: ["hive://cache/size/:region"], exportedActions: ["stats"])
        let hive = try makeHive([(Cache(), descriptor)])
        try await hive.start()
        return hive
    }

    @Test func listingsSayWhatIsExportedAndWhy() async throws {
        let hive = try await startedHive()
        let routes = Dictionary(uniqueKeysWithValues: hive.router.definitions.map { ($0.pattern, $0.exported) })
        #expect(routes == [
            "hive://cache/flush/:region": true, "hive://cache/size/:region": true, "hive://cache/drop": false,
            "hive://cache/broken": true,
        ])
        let actions = Dictionary(uniqueKeysWithValues: hive.mediator.definitions.map { ($0.name, $0.exported) })
        #expect(actions == ["count": true, "stats": true, "wipe": false])
        await hive.stop()
    }

    @Test func exportedRoutesOpenFromOutside() async throws {
        let hive = try await startedHive()
        let flushed = try await hive.openFromOutside("hive://cache/flush/eu", parameters: [:])
        #expect(flushed.handled && flushed.result == nil)
        let declined = try await hive.openFromOutside("hive://cache/flush/none", parameters: [:])
        #expect(!declined.handled)
        let size = try await hive.openFromOutside("hive://cache/size/eu-west", parameters: ["factor": "2"])
        #expect(size.result as? Int == 14, "a text parameter is parsed like the URL's")
        let failed = await #expect(throws: HiveError.self) { try await hive.openFromOutside("hive://cache/broken", parameters: [:]) }
        #expect(failed?.code == .handlerFailed)
        #expect(failed?.message.contains("disk full") == true)
        #expect(failed?.module == "cache")
        await hive.stop()
    }

    @Test func privateAndUnknownRoutesAreRefusedAndCallNothing() async throws {
        let hive = try await startedHive()
        let unmatched = Mutex(0)
        hive.router.setUnmatchedHandler { _ in unmatched.withLock { $0 += 1 } }
        let refused = await #expect(throws: OutsideCall.Refusal.self) {
            try await hive.openFromOutside("hive://cache/drop", parameters: [:])
        }
        #expect(refused == .notExported(
            "route 'hive://cache/drop' of module 'cache' is not exported: only the daemon's own modules may open it"))
        let missing = await #expect(throws: OutsideCall.Refusal.self) {
            try await hive.openFromOutside("hive://cache/nowhere", parameters: [:])
        }
        #expect(missing == .notFound("no route matches 'hive://cache/nowhere'"))
        #expect(unmatched.withLock { $0 } == 0)
        #expect(try await hive.router.open("hive://cache/drop"), "in the process it opens")
        let malformed = await #expect(throws: OutsideCall.Refusal.self) {
            try await hive.openFromOutside("hive://a b", parameters: [:])
        }
        #expect(malformed == .notFound("malformed URL 'hive://a b': byte 0x20 must be percent-encoded"))
        let matching = await #expect(throws: OutsideCall.Refusal.self) {
            try await hive.openFromOutside("hive://cache/drop?x=1", parameters: [:])
        }
        #expect(matching?.message == "route 'hive://cache/drop' of module 'cache', which 'hive://cache/drop?x=1' matches, is not exported: only the daemon's own modules may open it")
        await hive.stop()
    }

    @Test func exportedActionsPerformFromOutside() async throws {
        let hive = try await startedHive()
        #expect(try await hive.performFromOutside(target: "cache", action: "count", parameters: ["base": "41"]) as? Int == 42)
        #expect(try await hive.performFromOutside(target: "cache", action: "stats", parameters: [:]) as? [String: Int] == ["hits": 3])
        let refused = await #expect(throws: OutsideCall.Refusal.self) {
            try await hive.performFromOutside(target: "cache", action: "wipe", parameters: [:])
        }
        #expect(refused == .notExported("action 'wipe' of target 'cache' is not exported: only the daemon's own modules may perform it"))
        let missing = await #expect(throws: OutsideCall.Refusal.self) {
            try await hive.performFromOutside(target: "cache", action: "nope", parameters: [:])
        }
        #expect(missing == .notFound("target 'cache' has no action 'nope' (actions: count, stats, wipe)"), "no not-found action")
        let noTarget = await #expect(throws: OutsideCall.Refusal.self) {
            try await hive.performFromOutside(target: "shop", action: "x", parameters: [:])
        }
        #expect(noTarget == .notFound("no target 'shop' for action 'x': no module named 'shop' is registered"))
        let bad = await #expect(throws: HiveError.self) {
            try await hive.performFromOutside(target: "cache", action: "count", parameters: ["base": "many"])
        }
        #expect(bad?.code == .invalidParameter)
        await hive.stop()
        let stopped = await #expect(throws: HiveError.self) {
            try await hive.performFromOutside(target: "cache", action: "count", parameters: [:])
        }
        #expect(stopped?.code == .refusedEvent)
    }
}
