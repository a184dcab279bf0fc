import HiveKit
import Synchronization
import Testing

/// Records every request a route received.
final class Requests: Sendable {
    private let items = Mutex<[(String, RouteRequest)]>([])
    func add(_ tag: String, _ request: RouteRequest) { items.withLock { $0.append((tag, request)) } }
    var tags: [String] { items.withLock { $0.map(\.0) } }
    var last: RouteRequest? { items.withLock { $0.last?.1 } }
}

@Suite struct RouterTests {
    let router = Hive().router
    let seen = Requests()

    func route(_ pattern: String, _ tag: String, priority: Int = 0, accept: Bool = true) throws {
        let seen = seen
        try router.register(pattern, priority: priority) { request in
            seen.add(tag, request)
            return accept
        }
    }

    @Test func namedParametersAndDecodedQueryAreMerged() async throws {
        try route("hive://cache/flush/:region", "flush")
        #expect(try await router.open("hive://cache/flush/eu%2Dwest?reason=deploy%20done&by=a+b&region=ignored#top"))
        let request = try #require(seen.last)
        #expect(request.parameters == ["region": "eu-west", "reason": "deploy done", "by": "a b"])
        #expect(request.pattern == "hive://cache/flush/:region")
        #expect(request.scheme == "hive")
        #expect(request["region"] == "eu-west")
        #expect(request.query == ["reason": ["deploy done"], "by": ["a b"], "region": ["ignored"]])
    }

    @Test func repeatedQueryItemsAreAllKeptInOrder() async throws {
        try route("/search", "search")
        #expect(try await router.open("/search?tag=a&tag=b%20c&tag=a"))
        #expect(seen.last?.query["tag"] == ["a", "b c", "a"])
        #expect(seen.last?["tag"] == "a", "parameters keep the last")
    }

    @Test func schemeAndHostAreCaseInsensitiveThePathIsNot() async throws {
        try route("HIVE://Cache/Flush/:region", "flush")
        #expect(try await router.open("hive://CACHE/Flush/eu"))
        #expect(try await router.open("Hive://cache/Flush/eu"))
        #expect(try await router.open("hive://cache/flush/eu") == false)
        #expect(seen.tags == ["flush", "flush"])
        #expect(seen.last?["region"] == "eu")
    }

    /// Where HiveKit differs from JLRoutes on purpose (see `RouteURL`): the host is always
    /// the first path component, `localhost` and hosts with a dot included; `+` is a space
    /// in the query only.
    @Test func theHostIsAlwaysThePathsFirstComponentAndPlusIsASpaceOnlyInTheQuery() async throws {
        try route("/localhost/:id", "localhost")
        try route("/api.example.com/:id", "dotted")
        #expect(try await router.open("app://localhost/7"))
        #expect(seen.last?["id"] == "7")
        #expect(try await router.open("app://api.example.com/8"))
        #expect(seen.tags == ["localhost", "dotted"])
        #expect(try await router.open("app://7") == false, "localhost is not dropped")

        try route("/tags/:tag", "tag")
        #expect(try await router.open("/tags/a+b?note=c+d"))
        #expect(seen.last?["tag"] == "a+b", "a + in the path stays a +")
        #expect(seen.last?["note"] == "c d", "in the query it is a space")
    }

    @Test func wildcardMatchesTheRestOfThePath() async throws {
        try route("/files/*", "files")
        #expect(try await router.open("/files/a/b%20c"))
        #expect(seen.last?.wildcard == ["a", "b c"])
        #expect(try await router.open("/files"))
        #expect(seen.last?.wildcard == [])
        #expect(try await !router.open("/other/a"))
    }

    @Test func optionalSegments() async throws {
        try route("/user/:id(/:tab)(/edit)", "user")
        #expect(try await router.open("/user/7"))
        #expect(seen.last?.parameters == ["id": "7"])
        #expect(try await router.open("/user/7/posts"))
        #expect(seen.last?.parameters == ["id": "7", "tab": "posts"])
        #expect(try await router.open("/user/7/posts/edit"))
        #expect(seen.last?.parameters == ["id": "7", "tab": "posts"])
        #expect(try await !router.open("/user"))
        #expect(seen.tags == ["user", "user", "user"])
    }

    @Test func priorityThenRegistrationOrder() async throws {
        try route("/a/:x", "param-first")
        try route("/a/b", "literal")
        try route("/a/:y", "high", priority: 10)
        #expect(try await router.open("/a/b"))
        #expect(seen.tags == ["high"])
        _ = router.unregister("/a/:y")
        #expect(try await router.open("/a/b"))
        #expect(seen.tags == ["high", "param-first"])
    }

    @Test func aDecliningHandlerPassesToTheNextMatch() async throws {
        try route("/a/:x", "declines", priority: 5, accept: false)
        try route("/a/:x", "accepts")
        #expect(try await router.open("/a/1"))
        #expect(seen.tags == ["declines", "accepts"])
    }

    @Test func schemeTablesFallBackToTheGlobalTable() async throws {
        try route("hive://status", "hive-status")
        try route("other://status", "other-status", accept: false)
        try route("/status", "global-status")
        #expect(try await router.open("HIVE://status"))
        #expect(try await router.open("other://status"))
        #expect(try await router.open("/status"))
        #expect(try await router.open("third://status"))
        #expect(seen.tags == ["hive-status", "other-status", "global-status", "global-status", "global-status"])
        var noFallback = RouteOptions()
        noFallback.fallsBackToGlobal = false
        router.setOptions(noFallback, scheme: "third")
        #expect(try await !router.open("third://status"))
        #expect(!router.canOpen("third://status"))
        #expect(router.canOpen("hive://status"))
    }

    @Test func unmatchedURLsGoToTheUnmatchedHandler() async throws {
        let unmatched = Mutex<[String]>([])
        router.setUnmatchedHandler { url in unmatched.withLock { $0.append(url) } }
        try route("/a", "declines", accept: false)
        #expect(try await !router.open("/nowhere"))
        #expect(try await !router.open("/a"))
        #expect(unmatched.withLock { $0 } == ["/nowhere", "/a"])
    }

    @Test func canOpenCallsNothing() throws {
        try route("/a/:x", "a")
        #expect(router.canOpen("/a/1"))
        #expect(!router.canOpen("/b/1"))
        #expect(!router.canOpen("not a url"))
        #expect(seen.tags.isEmpty)
    }

    @Test(arguments: ["", "/a b", "1bad://x", "/a/%zz", "/a?q=%4", "/a/%FF"])
    func malformedURLsAreErrors(url: String) async throws {
        try route("/*", "any")
        let error = await #expect(throws: HiveError.self) { try await router.open(url) }
        #expect(error?.code == .invalidRoute)
        #expect(seen.tags.isEmpty)
    }

    @Test(arguments: [
        "", "/a/*/b", "/a(/b", "/a)/b", "/a/:", "/a/:x/:x", "/a/b*", "/a?x=1", "9x://a", "/a/%zz",
        "/a(/b)(/c)(/d)(/e)(/f)(/g)(/h)", "/" + String(repeating: "(", count: 10_000) + "a" + String(repeating: ")", count: 10_000),
        // Groups side by side: one recursion each (the fuzzer's stack overflow).
        "/a" + String(repeating: "()", count: 10_000),
    ])
    func malformedPatternsAreErrors(pattern: String) {
        let error = #expect(throws: HiveError.self) { try router.register(pattern) { _ in true } }
        #expect(error?.code == .invalidRoute)
    }

    @Test func aThrowingHandlerIsAnErrorNamingItsModule() async throws {
        struct Boom: Error {}
        try router.register("/boom") { _ in throw Boom() }
        let error = await #expect(throws: HiveError.self) { try await router.open("/boom") }
        #expect(error?.code == .handlerFailed)
        #expect(error?.underlying is Boom)
    }

    @Test func matchesAmongManyRoutes() async throws {
        for index in 0..<1_000 { try route("hive://module\(index)/action/:id", "r\(index)") }
        #expect(try await router.open("hive://module777/action/9"))
        #expect(seen.tags == ["r777"])
        #expect(seen.last?["id"] == "9")
        #expect(router.patterns.count == 1_000)
    }
}
