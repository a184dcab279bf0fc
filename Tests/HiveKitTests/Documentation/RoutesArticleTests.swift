import HiveKit
import TestSupport
import Testing

// The code of HiveKit.docc/Routes.md, compiled and run: every block of the article is this
// file's text (DocumentationCodeTests checks that).

/// Entries by region, for the routes below.
actor RegionCache {
    private var entries = ["eu": 3, "us": 2]
    func flush(region: String) { entries[region] = 0 }
    func count(region: String) -> Int? { entries[region] }
}

/// Matches `api://versioned/vN/…` and hands the handler `version`, N.
struct Version: RouteMatcher {
    func match(_ request: RouteRequest) -> [String: String]? {
        guard request.path.count > 1, request.path[1].first == "v", let number = Int(request.path[1].dropFirst()) else {
            return nil
        }
        return ["version": String(number)]
    }
}

/// Registers the article's routes in `setup` and makes its calls in `ready`.
struct RoutesModule: Module {
    let seen: Recorder
    let cache = RegionCache()

    func setup(_ context: ModuleContext) async throws {
        let cache = self.cache
        try context.router.register("hive://cache/flush/:region") { request in
            await cache.flush(region: try request.parameter("region"))
            return true
        }
        try context.router.register("/files/*") { request in context.logger.info("files \(request.wildcard)"); return true }
        try context.router.register("/user/:id(/:tab)", priority: 10) { request in request["id"] != "guest" }
        try context.router.register("hive://cache/size/:region", producing: Int.self) { request in
            await cache.count(region: try request.parameter("region"))      // nil declines
        }
    }

    func ready(_ context: ModuleContext) async throws {
        let hive = context.hive
        let handled = try await hive.router.open("hive://cache/flush/eu?reason=deploy%20done",
                                                 extras: ["requester": "cron"])   // any Sendable values
        let size = try await hive.router.value(for: "hive://cache/size/eu", as: Int.self)
        let url = try Router.url(for: "hive://cache/flush/:region", parameters: ["region": "eu west"])
        let openable = hive.router.canOpen("hive://cache/flush/eu")     // true; calls nothing
        hive.router.setUnmatchedHandler { url in context.logger.warning("no route for \(url)") }
        hive.router.setUnmatchedHandler(scheme: "shop") { url in context.logger.notice("no shop page \(url)") }  // URLs of shop:// only
        try context.router.register("hive://cache/stats", exported: true) { _ in true }  // the control socket may open it
        try context.router.register("api://versioned", matcher: Version()) { request in request["version"] != nil }  // a RouteMatcher decides
        var options = RouteOptions()                     // per table: JLRoutes' switches, MGJRouter's ways
        options.matchesPrefixes = true                   // mgj://search answers mgj://search/travel
        hive.router.setOptions(options, scheme: "mgj")
        context.router.unregisterAll(scheme: "shop")     // this owner's routes of a table; unregisterAll(): all
        let definitions = hive.router.definitions   // [RouteDefinition]: pattern, scheme, priority, owner, exported

        seen.append("\(handled) \(size) \(url) \(openable)")
        seen.append(definitions.map { "\($0.pattern)\($0.exported ? " exported" : "")" }.joined(separator: ", "))
        seen.append("\(try await hive.router.open("api://versioned/v2/items")) \(try await hive.router.open("/user/guest"))")
    }
}

@Suite struct RoutesArticleTests {
    @Test func theArticlesRoutesAnswerAsItsCommentsSay() async throws {
        let seen = Recorder()
        let hive = try makeHive([(RoutesModule(seen: seen), ModuleDescriptor(name: "cache"))])
        try await hive.start()
        try await hive.send(.ready)
        #expect(seen.all == [
            "true 0 hive://cache/flush/eu%20west true",
            "hive://cache/flush/:region, /files/*, /user/:id(/:tab), hive://cache/size/:region, hive://cache/stats exported, api://versioned",
            "true false",
        ])
        await hive.stop()
    }
}
