import HiveKit
import Synchronization
import TestSupport
import Testing

// The code of HiveKit.docc/Services.md, compiled and run: every block of the article is
// this file's text (DocumentationCodeTests checks that).

protocol WallClock: Sendable { func now() -> String }
struct SystemClock: WallClock { func now() -> String { "system" } }
struct UTCClock: WallClock { func now() -> String { "utc" } }
protocol Request: AnyObject, Sendable {}
final class HTTPRequest: Request {}
protocol Metrics: Sendable {}

/// Registers and resolves services in its `setup`, as the article's first block does.
struct ClockModule: Module {
    let seen: Recorder

    func setup(_ context: ModuleContext) async throws {
        let hive = context.hive
        try context.services.register(WallClock.self) { SystemClock() }                       // singleton
        try context.services.register(WallClock.self, name: "utc") { UTCClock() }             // named variant
        try context.services.register(Request.self, lifetime: .transient) { HTTPRequest() }   // new per resolve
        let clock = try context.services.resolve(WallClock.self)              // any WallClock
        let utc = try context.services.resolve(WallClock.self, name: "utc")
        let fresh = try context.services.resolve(WallClock.self, cached: false)  // a new one, kept nowhere
        let created = context.services.cachedInstance(WallClock.self)  // the singleton if created, else nil; creates nothing
        context.services.releaseInstance(WallClock.self)   // release it; the next resolve makes a new one
        if context.services.isAvailable(Metrics.self) { context.logger.info("metrics are on") }
        let definitions = hive.services.definitions   // [ServiceDefinition]: service, name, lifetime, implementation, owner

        seen.append("\(clock.now()) \(utc.now()) \(fresh.now()) \(created?.now() ?? "none")")
        seen.append(definitions.map { "\($0.service) \($0.name ?? "-") \($0.lifetime) \($0.owner ?? "-")" }.joined(separator: "; "))
        let requests = try (context.services.resolve(Request.self), context.services.resolve(Request.self))
        seen.append(requests.0 === requests.1 ? "one request" : "two requests")
    }
}

@Suite struct ServicesArticleTests {
    @Test func theArticlesRegistrationsAndResolvesDoWhatItsCommentsSay() async throws {
        let seen = Recorder()
        let hive = try makeHive([(ClockModule(seen: seen), ModuleDescriptor(name: "clocks"))])
        try await hive.start()
        #expect(seen.all == [
            "system utc system system",
            "Request - transient clocks; WallClock - singleton clocks; WallClock utc singleton clocks",
            "two requests",
        ])
        #expect(hive.services.cachedInstance(WallClock.self) == nil, "released, and not resolved since")
        await hive.stop()
    }

    @Test func theCatalogRegistersAConfigurationsEntriesAllOrNothing() throws {
        let hive = try makeHive([])
        let specs = [
            ServiceSpec(service: "WallClock", implementation: "SystemClock"),
            ServiceSpec(service: "Request", implementation: "HTTPRequest"),
        ]
        var catalog = ServiceCatalog()
        catalog.register(WallClock.self, service: "WallClock", implementation: "SystemClock") { SystemClock() }
        catalog.register(Request.self, implementation: "HTTPRequest", lifetime: .transient) { HTTPRequest() }
        try hive.services.register(specs, catalog: catalog)  // all or nothing: a configuration's services: entries

        #expect(try hive.services.resolve(WallClock.self).now() == "system")
        #expect(try hive.services.resolve(Request.self) !== hive.services.resolve(Request.self), "transient: the catalog's lifetime")
        let mismatched = [ServiceSpec(service: "WallClock", implementation: "HTTPRequest")]
        #expect(throws: HiveError.self) { try makeHive([]).services.register(mismatched, catalog: catalog) }
    }
}
