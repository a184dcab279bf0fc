import HiveKit
import TestSupport
import Testing

// The code of HiveKit.docc/RegisteringModules.md, compiled and run: every block of the
// article is this file's text (DocumentationCodeTests checks that).

/// Keeps responses for `ttl`, at most `capacity` of them.
struct ResponseCache: Module {
    let ttl: Duration
    let capacity: Int

    init(settings: Settings) throws(HiveError) {
        ttl = try settings.duration("ttl") ?? .seconds(60)
        capacity = try settings.int("capacity") ?? 1000
        guard capacity > 0 else { throw settings.error("capacity", "must be at least 1, not \(capacity)") }
    }
}

func cacheCatalog() -> ModuleCatalog {
    var catalog = ModuleCatalog()
    catalog.register("response-cache", settings: ["ttl", "capacity"]) { descriptor in
        try ResponseCache(settings: descriptor.settings)
    }
    return catalog
}

func addAndReload(_ hive: Hive, catalog: ModuleCatalog) async throws -> ReloadSummary {
    // In code, into a running hive: setup, init, then ready, as the hive had them.
    try await hive.register(try ResponseCache(settings: Settings()), as: ModuleDescriptor(name: "extra"))
    // The configured modules again, as a file lists them: applied all or nothing.
    let cache = ModuleDescriptor(name: "cache", type: "response-cache", settings: Settings(["ttl": .string("5s")]))
    return try await hive.reload(to: [cache], catalog: catalog)
}

@Suite struct RegisteringModulesArticleTests {
    static func spec(_ settings: [String: SettingValue]) -> ModuleDescriptor {
        ModuleDescriptor(name: "cache", type: "response-cache", settings: Settings(settings))
    }

    @Test func aMisspeltOrBadSettingIsAnErrorNamingModuleAndKey() throws {
        let misspelt = try #require(throws: HiveError.self) { try cacheCatalog().instantiate(Self.spec(["tll": .string("5s")])) }
        #expect("\(misspelt)" == "module 'cache': unknown setting 'tll'; expected ttl, capacity", "\(misspelt)")
        let bad = try #require(throws: HiveError.self) { try cacheCatalog().instantiate(Self.spec(["capacity": .int(0)])) }
        #expect("\(bad)" == "module 'cache': setting 'capacity' must be at least 1, not 0", "\(bad)")
        let mistyped = try #require(throws: HiveError.self) { try cacheCatalog().instantiate(Self.spec(["ttl": .int(5)])) }
        #expect("\(mistyped)".contains("setting 'ttl' must be a string, not integer '5'"), "\(mistyped)")
    }

    @Test func aModuleJoinsInCodeAndAReloadAddsTheConfiguredOne() async throws {
        let hive = try makeHive([])
        try await hive.start()
        try await hive.send(.ready)
        let summary = try await addAndReload(hive, catalog: cacheCatalog())
        #expect(summary.isApplied && summary.added == ["cache"], "\(summary)")
        #expect(hive.activeModuleNames.sorted() == ["cache", "extra"])
        #expect((hive.module(named: "cache") as? ResponseCache)?.ttl == .seconds(5))
        await hive.stop()
    }
}
