import HiveKit
import Synchronization
import TestSupport
import Testing

/// Listing routes, per-scheme unmatched handlers, and cases ported from JLRoutes' own
/// test suite (`JLRoutesTests.m`) and MGJRouter's demo.
@Suite struct RouteListingTests {
    let router = Hive().router
    let seen = Requests()

    func route(_ pattern: String, _ tag: String, priority: Int = 0) throws {
        try router.register(pattern, priority: priority) { [seen] request in
            seen.add(tag, request)
            return true
        }
    }

    @Test func definitionsListEveryRouteWithItsTableAndPriority() throws {
        // JLRoutes' testRoutesArray and testAllRoutes.
        try route("/global1", "g1")
        try route("/global2", "g2")
        try route("SCHEME://scheme1", "s1", priority: 5)
        try route("scheme://scheme2", "s2")
        #expect(router.definitions == [
            RouteDefinition(pattern: "/global1", scheme: nil, priority: 0, owner: nil),
            RouteDefinition(pattern: "/global2", scheme: nil, priority: 0, owner: nil),
            RouteDefinition(pattern: "SCHEME://scheme1", scheme: "scheme", priority: 5, owner: nil),
            RouteDefinition(pattern: "scheme://scheme2", scheme: "scheme", priority: 0, owner: nil),
        ])
        #expect(router.definitions.filter { $0.scheme == "foo" }.isEmpty)
    }

    @Test func definitionsNameTheOwningModule() async throws {
        struct Offering: Module {
            func setup(_ context: ModuleContext) async throws {
                try context.router.register("hive://offering/a", priority: 3) { _ in true }
            }
        }
        let hive = try makeHive([(Offering(), ModuleDescriptor(name: "offering"))])
        try hive.router.register("/mine") { _ in true }
        try await hive.start()
        #expect(hive.router.definitions == [
            RouteDefinition(pattern: "/mine", scheme: nil, priority: 0, owner: nil),
            RouteDefinition(pattern: "hive://offering/a", scheme: "hive", priority: 3, owner: "offering"),
        ])
        try await hive.unregister(named: "offering")
        #expect(hive.router.definitions.map(\.pattern) == ["/mine"])
        await hive.stop()
    }

    @Test func eachSchemeHasItsOwnUnmatchedHandlerBeforeTheGlobalOne() async throws {
        let calls = Mutex<[String]>([])
        router.setUnmatchedHandler { url in calls.withLock { $0.append("global \(url)") } }
        router.setUnmatchedHandler(scheme: "Shop") { url in calls.withLock { $0.append("shop \(url)") } }
        #expect(try await !router.open("shop://nowhere"))
        #expect(try await !router.open("SHOP://nowhere"))
        #expect(try await !router.open("other://nowhere"))
        #expect(try await !router.open("/nowhere"))
        router.setUnmatchedHandler(scheme: "shop", nil)
        #expect(try await !router.open("shop://again"))
        #expect(calls.withLock { $0 } == [
            "shop shop://nowhere", "shop SHOP://nowhere", "global other://nowhere", "global /nowhere",
            "global shop://again",
        ])
    }

    @Test func aModulesUnmatchedHandlersGoWithIt() async throws {
        let log = Recorder()
        struct Recording: Module {
            let log: Recorder
            func setup(_ context: ModuleContext) async throws {
                context.router.setUnmatchedHandler(scheme: "shop") { [log] url in log.append(url) }
            }
        }
        let hive = try makeHive([(Recording(log: log), ModuleDescriptor(name: "catcher"))])
        try await hive.start()
        #expect(try await !hive.router.open("shop://a"))
        try await hive.unregister(named: "catcher")
        #expect(try await !hive.router.open("shop://b"))
        #expect(log.all == ["shop://a"])
        await hive.stop()
    }

    @Test func jlroutesPriority() async throws {
        // JLRoutes' testPriority.
        try route("/test/priority/:level", "level")
        try route("/test/priority/high", "high", priority: 20)
        #expect(try await router.open("tests://test/priority/high"))
        #expect(seen.last?.pattern == "/test/priority/high")
        try route("priorityTest://:foo/bar/:baz", "bar", priority: 20)
        try route("priorityTest://:foo/things/:baz", "things", priority: 10)
        try route("priorityTest://:foo/:baz", "two", priority: 1)
        #expect(try await router.open("priorityTest://stuff/things/foo"))
        #expect(try await router.open("priorityTest://one/two"))
        #expect(try await router.open("priorityTest://stuff/bar/baz"))
        #expect(Array(seen.tags.suffix(3)) == ["things", "two", "bar"])
    }

    @Test func jlroutesSchemesAndFallback() async throws {
        // JLRoutes' testSchemes and testFallbackToGlobal; the global table is a fallback
        // for every scheme here unless switched off (JLRoutes: only when switched on).
        try route("/test", "global")
        try route("namespaceTest1://test", "ns1")
        try route("namespaceTest2://test", "ns2")
        try route("/user/view/:userID", "user")
        #expect(try await router.open("tests://test"))
        #expect(try await router.open("namespaceTest1://test"))
        #expect(try await router.open("namespaceTest2://test"))
        #expect(seen.tags == ["global", "ns1", "ns2"])
        var noFallback = RouteOptions()
        noFallback.fallsBackToGlobal = false
        router.setOptions(noFallback, scheme: "namespaceTest1")
        #expect(try await !router.open("namespaceTest1://user/view/joeldev"))
        #expect(try await router.open("namespaceTest2://user/view/joeldev"))
        #expect(seen.last?.parameters == ["userID": "joeldev"])
        #expect(seen.last?.scheme == "namespacetest2")
    }

    @Test func jlroutesRouteRemovalRemovesEveryRouteWithThePattern() async throws {
        // JLRoutes' testRouteRemoval; `unregister` removes all routes with the pattern
        // (JLRoutes' removeRouteWithPattern: the first).
        try route("/:any", "any")  // JLRoutes accepts "/:"; HiveKit wants a name
        try route("namespaceTest3://test1", "t1")
        try route("namespaceTest3://test1", "t1-again")
        try route("namespaceTest3://test2", "t2")
        #expect(try await router.open("namespaceTest3://test1"))
        #expect(router.unregister("namespaceTest3://test1"))
        #expect(router.definitions.map(\.pattern) == ["/:any", "namespaceTest3://test2"])
        #expect(try await router.open("namespaceTest3://test2"))
        #expect(seen.tags == ["t1", "t2"])
    }

    @Test func mgjrouterDemos() async throws {
        // MGJRouter's demo: a Chinese path, parameters with a query, user info.
        try route("mgj://category/家居", "home")
        try route("mgj://search/:query", "search")
        try route("mgj://category/travel", "travel")
        #expect(try await router.open("mgj://category/家居"))
        #expect(try await router.open("mgj://category/%E5%AE%B6%E5%B1%85"))
        #expect(try await router.open("mgj://search/bicycle?color=red"))
        #expect(seen.last?.parameters == ["query": "bicycle", "color": "red"])
        #expect(try await router.open("mgj://category/travel", extras: ["user_id": 1900]))
        #expect(try seen.last?.parameter("user_id", as: Int.self) == 1900)
        #expect(seen.tags == ["home", "home", "search", "travel"])
        // demoDeregisterURLPattern.
        router.unregister("mgj://search/:query")
        #expect(try await !router.open(Router.url(for: "mgj://search/:query", parameters: ["query": "Hangzhou"])))
        // demoFallback: a catch-all, tried last because of its priority.
        try route("mgj://*", "catch-all", priority: -1)
        try route("mgj://foo/bar/none/exists", "deep")
        #expect(try await router.open("mgj://foo/bar"))
        #expect(try await router.open("mgj://foo/bar/none/exists"))
        #expect(Array(seen.tags.suffix(2)) == ["catch-all", "deep"])
    }
}
