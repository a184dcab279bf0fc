import HiveKit
import Testing

/// Routes in URL fragments, as JLRoutes matches them: its whole `testFragmentRouting`
/// and the fragment case of `testRouting`, with its own values (`JLRoutesTests.m`).
@Suite struct RouteFragmentTests {
    let router = Hive().router
    let seen = Requests()

    func route(_ pattern: String) throws {
        try router.register(pattern) { [seen] request in
            seen.add(pattern, request)
            return true
        }
    }

    /// Opens `url` and returns the request the handler got; `nil` when nothing matched.
    func open(_ url: String) async throws -> RouteRequest? {
        let before = seen.tags.count
        guard try await router.open(url) else { return nil }
        #expect(seen.tags.count == before + 1)
        return seen.last
    }

    @Test func jlroutesFragmentRouting() async throws {
        try route("/user#/view/:userID")
        try route("/:object#/:action/:primaryKey")
        try route("/interleaving/:param1#/foo/:param2")
        try route("/xyz/wildcard#/*")
        try route("/route#/:param/*")
        try route("/required#/:requiredParam(/optional/:optionalParam)(/moreOptional/:moreOptionalParam)")

        // [self route:nil]: no URL, no match.
        #expect(!router.canOpen(""))

        var request = try #require(try await open("tests://user#/view/joeldev"))
        #expect(request.parameters == ["userID": "joeldev"])
        #expect(request.pattern == "/user#/view/:userID")
        #expect(request.path == ["user#", "view", "joeldev"])

        request = try #require(try await open("tests://user#/view/joeldev/"))
        #expect(request.parameters == ["userID": "joeldev"])

        request = try #require(try await open("tests://user#/view/joel%20levin"))
        #expect(request.parameters == ["userID": "joel levin"])

        request = try #require(try await open("tests://user#/view/joeldev?foo=bar&thing=stuff"))
        #expect(request.parameters == ["userID": "joeldev", "foo": "bar", "thing": "stuff"])

        request = try #require(try await open("tests://user#/view/joeldev?userID=evilPerson"))
        #expect(request.parameters == ["userID": "joeldev"])

        request = try #require(try await open("tests://user#/view/joeldev?userID=evilPerson&search=evilSearch&evilThing=evil"))
        #expect(request.parameters.count == 3)
        #expect(request["userID"] == "joeldev")
        #expect(request["search"] == "evilSearch")

        request = try #require(
            try await open("tests://user?search=niceSearch&go=home#/view/joeldev?userID=evilPerson&&evilThing=evil"))
        #expect(request.parameters.count == 4)
        #expect(request["userID"] == "joeldev")
        #expect(request["go"] == "home")

        request = try #require(try await open("tests://post#/edit/123"))
        #expect(request.parameters == ["object": "post", "action": "edit", "primaryKey": "123"])

        request = try #require(try await open("tests://interleaving/paramvalue1#/foo/paramvalue2"))
        #expect(request.parameters == ["param1": "paramvalue1", "param2": "paramvalue2"])

        request = try #require(try await open("tests://xyz/wildcard#"))
        #expect(request.parameters.isEmpty)
        #expect(request.wildcard == [])

        request = try #require(try await open("tests://xyz/wildcard#/matches/with/extra/path/components"))
        #expect(request.parameters.isEmpty)
        #expect(request.wildcard == ["matches", "with", "extra", "path", "components"])

        request = try #require(try await open("tests://route#/matches/with/wildcard"))
        #expect(request.parameters == ["param": "matches"])
        #expect(request.wildcard == ["with", "wildcard"])

        #expect(try await open("tests://doesnt/exist#/and/wont/match") == nil)

        request = try #require(try await open("tests://required#/mustExist"))
        #expect(request.parameters == ["requiredParam": "mustExist"])

        request = try #require(try await open("tests://required#/mustExist/optional/mightExist"))
        #expect(request.parameters == ["requiredParam": "mustExist", "optionalParam": "mightExist"])

        request = try #require(try await open("tests://required#/mustExist/optional/mightExist/moreOptional/mightExistToo"))
        #expect(request.parameters == [
            "requiredParam": "mustExist", "optionalParam": "mightExist", "moreOptionalParam": "mightExistToo",
        ])
    }

    @Test func jlroutesRoutingWithQueryItemsInTheFragment() async throws {
        // testRouting's routes (its unnamed "/:" needs a name here) and its fragment case.
        for pattern in [
            "/test", "/user/view/:userID", "/:object/:action/:primaryKey", "/", "/:any",
            "/interleaving/:param1/foo/:param2", "/xyz/wildcard/*", "/route/:param/*",
            "/required/:requiredParam(/optional/:optionalParam)(/moreOptional/:moreOptionalParam)",
        ] {
            try route(pattern)
        }
        let request = try #require(try await open("tests://user/view/joeldev#foo=bar&thing=stuff"))
        #expect(request.pattern == "/user/view/:userID")
        #expect(request.parameters == ["userID": "joeldev", "foo": "bar", "thing": "stuff"])
    }

    /// A fragment a pattern does not name is ignored, as before: a route without `#`
    /// matches as if the URL had none, and no parameter swallows a `#…`.
    @Test func aFragmentNoPatternNamesChangesNoMatch() async throws {
        try route("hive://cache/flush/:region")
        try route("/files/*")
        var request = try #require(try await open("hive://cache/flush/eu#top"))
        #expect(request.parameters == ["region": "eu"])
        #expect(request.path == ["cache", "flush", "eu"])
        request = try #require(try await open("/files/a/b#/c/d"))
        #expect(request.wildcard == ["a", "b"])
        #expect(!router.canOpen("hive://cache/flush#/eu"), "the fragment's path is not the path")
    }

    /// A route naming the fragment goes before one that ignores it, whatever their
    /// priorities; the fragment's query items join the query either way.
    @Test func aRouteNamingTheFragmentIsTriedFirst() async throws {
        try router.register("/user/:id", priority: 10) { [seen] request in
            seen.add("plain", request)
            return true
        }
        try router.register("/user/:id#/tab/:tab") { [seen] request in
            seen.add("fragment", request)
            return true
        }
        #expect(try await router.open("/user/7#/tab/posts?sort=new"))
        #expect(seen.last?.parameters == ["id": "7", "tab": "posts", "sort": "new"])
        #expect(try await router.open("/user/7#sort=new"))
        #expect(seen.last?.parameters == ["id": "7", "sort": "new"])
        #expect(seen.tags == ["fragment", "plain"])
    }

    @Test(arguments: ["/a#b#c", "/a/#/#"])
    func aPatternNamesOneFragment(pattern: String) {
        let error = #expect(throws: HiveError.self) { try router.register(pattern) { _ in true } }
        #expect(error?.code == .invalidRoute)
    }

    @Test func aURLIsBuiltFromAFragmentPattern() async throws {
        try route("/user#/view/:userID")
        let url = try Router.url(for: "/user#/view/:userID", parameters: ["userID": "joel levin"])
        #expect(url == "/user%23/view/joel%20levin")
        #expect(try await open(url)?.parameters == ["userID": "joel levin"])
    }
}
