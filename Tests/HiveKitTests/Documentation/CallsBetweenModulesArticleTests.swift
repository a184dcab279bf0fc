import HiveKit
import Logging
import TestSupport
import Testing

// The code of HiveKit.docc/CallsBetweenModules.md, compiled and run: every block of the
// article is this file's text (DocumentationCodeTests checks that). In a real package
// `KeyValueCache` lives in a small shared target (the contract); `CacheModule` and
// `ReportModule` live in targets that never import each other.

// Shared contract target: the only thing both sides import.
public protocol KeyValueCache: Sendable {
    func set(_ value: String, for key: String) async
    func value(for key: String) async -> String?
}

// Cache module target.
actor MemoryCache: KeyValueCache {
    private var entries: [String: String] = [:]
    func set(_ value: String, for key: String) { entries[key] = value }
    func value(for key: String) -> String? { entries[key] }
    var count: Int { entries.count }
    /// Drops the keys of one region (`region/…`); returns how many went.
    func flush(region: String) -> Int {
        let doomed = entries.keys.filter { $0.hasPrefix(region + "/") }
        for key in doomed { entries[key] = nil }
        return doomed.count
    }
}

struct CacheModule: Module {
    func setup(_ context: ModuleContext) async throws {
        let cache = MemoryCache()
        // 1. a service: other modules resolve it by protocol
        try context.services.register(KeyValueCache.self) { cache }
        // 2. a route: other modules open a URL
        try context.router.register("hive://cache/flush/:region") { request in
            guard let region = request["region"] else { return false }  // decline
            let dropped = await cache.flush(region: region)
            context.logger.info("flushed \(dropped) entries", metadata: ["reason": "\(request["reason"] ?? "-")"])
            return true
        }
        // 3. an action: other modules perform it by target and name
        try context.mediator.register("size") { _ in await cache.count }
    }
}

// Report module target: imports only the contract.
struct ReportModule: Module {
    func ready(_ context: ModuleContext) async throws {
        let cache = try context.services.resolve(KeyValueCache.self)  // any KeyValueCache
        await cache.set("42", for: "eu-west/answer")
        await cache.set("7", for: "us-east/lucky")
        try await context.router.open("hive://cache/flush/eu-west?reason=deploy%20done")
        let size = try await context.mediator.perform(target: "cache", action: "size", as: Int.self)
        context.logger.info("cache holds \(size) entries")
    }
}

func makeCacheAndReport(logger: Logger) throws -> Hive {
    try Hive(HiveConfiguration(logger: logger), modules: [
        (CacheModule(), ModuleDescriptor(name: "cache", level: .basic)),
        (ReportModule(), ModuleDescriptor(name: "report")),
    ])
}

@Suite struct CallsBetweenModulesArticleTests {
    @Test func aModuleUsesAnothersServiceRouteAndActionWithoutImportingIt() async throws {
        let logs = LogStore()
        let hive = try makeCacheAndReport(logger: logs.logger)
        try await hive.start()
        let delivered = try await hive.send(.ready)
        #expect(delivered.failures.isEmpty)
        let lines = logs.all.compactMap { record in
            record.metadata["module"].map { "[\($0)] \(record.metadata["event"] ?? "-"): \(record.message)" }
        }
        #expect(lines == ["[cache] ready: flushed 1 entries", "[report] ready: cache holds 1 entries"])
        #expect(logs.all.first { $0.message == "flushed 1 entries" }?.metadata["reason"] == "deploy done")
        await hive.stop()
    }
}
