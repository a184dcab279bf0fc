import HiveKit
import TestSupport
import Testing

/// Removing a scheme's routes and every route (JLRoutes' `unregisterRouteScheme:`,
/// `removeAllRoutes`, `unregisterAllRouteSchemes`), with its values.
@Suite struct RouteRemovalTests {
    let router = Hive().router
    let seen = Requests()

    func route(_ pattern: String) throws {
        try router.register(pattern) { [seen] request in
            seen.add(pattern, request)
            return true
        }
    }

    @Test func jlroutesRouteRemovalUnregistersAScheme() async throws {
        try route("/:any")  // JLRoutes' "/:"
        try route("namespaceTest3://test1")
        try route("namespaceTest3://test2")
        var noFallback = RouteOptions()
        noFallback.fallsBackToGlobal = false  // JLRoutes' default
        router.setOptions(noFallback, scheme: "namespaceTest3")

        #expect(try await router.open("namespaceTest3://test1"))
        router.unregister("namespaceTest3://test1")
        #expect(try await !router.open("namespaceTest3://test1"))
        #expect(try await router.open("namespaceTest3://test2"))
        #expect(seen.last?.pattern == "namespaceTest3://test2")

        #expect(router.unregisterAll(scheme: "namespaceTest3") == 1)
        #expect(router.definitions.map(\.pattern) == ["/:any"])
        // The scheme's options stay (JLRoutes forgets them with the scheme): back to the
        // defaults, the global "/:any" answers.
        #expect(try await !router.open("namespaceTest3://test2"))
        router.setOptions(RouteOptions(), scheme: "namespaceTest3")
        #expect(try await router.open("namespaceTest3://test2"))
        #expect(seen.last?.pattern == "/:any")
    }

    @Test func removeAllRoutesOfTheGlobalTableAndOfEveryTable() throws {
        try route("/global1")
        try route("/global2")
        try route("scheme://scheme1")
        #expect(router.unregisterAll(scheme: nil) == 2)
        #expect(router.patterns == ["scheme://scheme1"])
        try route("/global3")
        try route("other://x")
        #expect(router.unregisterAll() == 3)
        #expect(router.definitions.isEmpty)
        #expect(router.unregisterAll() == 0)
    }

    @Test func aModuleRemovesOnlyItsOwnRoutes() async throws {
        struct Offering: Module {
            func setup(_ context: ModuleContext) async throws {
                try context.router.register("hive://offering/a") { _ in true }
                try context.router.register("/offering/b") { _ in true }
            }
            func custom(_ context: ModuleContext) async throws {
                #expect(context.router.unregisterAll() == 2)
            }
        }
        let hive = try makeHive([(Offering(), ModuleDescriptor(name: "offering"))])
        try hive.router.register("hive://mine") { _ in true }
        try await hive.start()
        #expect(hive.router.unregisterAll(scheme: "hive") == 1, "the hive's own only")
        #expect(hive.router.patterns == ["hive://offering/a", "/offering/b"])
        try await hive.send(.custom(name: "clear", params: [:]))
        #expect(hive.router.patterns.isEmpty)
        await hive.stop()
    }
}
