import HiveKit
import Testing

/// MGJRouter's implicit prefix match and literal suffixes, behind options of the `mgj`
/// table, with its own values (its README and demo).
@Suite struct RoutePrefixTests {
    let router = Hive().router
    let seen = Requests()

    func route(_ pattern: String) throws {
        try router.register(pattern) { [seen] request in
            seen.add(pattern, request)
            return true
        }
    }

    func mgjOptions(prefixes: Bool = false, suffixes: Bool = false) {
        var options = RouteOptions()
        options.matchesPrefixes = prefixes
        options.literalSuffixes = suffixes
        router.setOptions(options, scheme: "mgj")
    }

    @Test func mgjrouterFallbackAnswersEveryLongerURL() async throws {
        mgjOptions(prefixes: true)
        // README: a global pattern as a fallback.
        try route("mgj://")
        #expect(try await router.open("mgj://search/travel/china?has_travelled=0"))
        #expect(seen.last?.pattern == "mgj://")
        #expect(seen.last?.wildcard == ["search", "travel", "china"])
        #expect(seen.last?["has_travelled"] == "0")
        // demoFallback: the deeper pattern is no prefix of the URL; the fallback takes it.
        try route("mgj://foo/bar/none/exists")
        #expect(try await router.open("mgj://foo/bar"))
        #expect(seen.last?.pattern == "mgj://")
        #expect(try await router.open("mgj://foo/bar/none/exists"))
        #expect(seen.last?.pattern == "mgj://foo/bar/none/exists")
    }

    @Test func mgjrouterPrefixMatchTriesExactMatchesThenTheLongestPrefix() async throws {
        mgjOptions(prefixes: true)
        try route("mgj://search")
        try route("mgj://search/:query")
        #expect(try await router.open("mgj://search/travel"))
        #expect(seen.last?.pattern == "mgj://search/:query", "an exact match first")
        #expect(try await router.open("mgj://search/travel/china"))
        #expect(seen.last?.pattern == "mgj://search/:query", "then the longest prefix")
        #expect(seen.last?.parameters == ["query": "travel"])
        #expect(seen.last?.wildcard == ["china"])
        router.unregister("mgj://search/:query")
        #expect(try await router.open("mgj://search/travel"))
        #expect(seen.last?.pattern == "mgj://search")
        #expect(seen.last?.wildcard == ["travel"])
        #expect(router.canOpen("mgj://search/a/b/c"))
    }

    @Test func withoutTheOptionAPatternMatchesItsOwnLengthOnly() async throws {
        try route("mgj://search")
        #expect(try await !router.open("mgj://search/travel"))
        mgjOptions(prefixes: true)
        #expect(try await router.open("mgj://search/travel"))
    }

    @Test func mgjrouterParameterWithALiteralSuffix() async throws {
        mgjOptions(suffixes: true)
        try route("mgj://beauty/:id.html")
        #expect(try await router.open("mgj://beauty/123.html"))
        #expect(seen.last?.parameters == ["id": "123"])
        #expect(try await !router.open("mgj://beauty/123"), "the suffix must be there (MGJRouter strips it if it is)")
        #expect(try await !router.open("mgj://beauty/.html"), "and a value before it")
        let url = try Router.url(for: "mgj://beauty/:id.html", parameters: ["id": 7], options: router.options(scheme: "mgj"))
        #expect(url == "mgj://beauty/7.html")
    }

    @Test func withoutTheOptionADotIsPartOfTheName() async throws {
        try route("mgj://beauty/:id.html")
        #expect(try await router.open("mgj://beauty/123"))
        #expect(seen.last?.parameters == ["id.html": "123"])
    }
}
