import HiveKit
import Testing

/// `Router.url(for:parameters:)`: MGJRouter's `generateURLWithPattern:parameters:`, by name.
@Suite struct RouteURLBuildingTests {
    @Test func fillsParametersAndPercentEncodes() throws {
        #expect(try Router.url(for: "mgj://search/:keyword", parameters: ["keyword": "Hangzhou"]) == "mgj://search/Hangzhou")
        #expect(try Router.url(for: "hive://cache/flush/:region", parameters: ["region": "eu west/2", "reason": "deploy done"])
            == "hive://cache/flush/eu%20west%2F2?reason=deploy%20done")
        #expect(try Router.url(for: "/user/:id", parameters: ["id": 7]) == "/user/7")
        #expect(try Router.url(for: "mgj://category/家居") == "mgj://category/%E5%AE%B6%E5%B1%85")
        #expect(try Router.url(for: "/q", parameters: ["b": "2", "a": "x&y=z", "c": true]) == "/q?a=x%26y%3Dz&b=2&c=true")
    }

    @Test func optionalGroupsTakeTheLongestFormWithEveryValue() throws {
        let pattern = "/required/:requiredParam(/optional/:optionalParam)(/moreOptional/:moreOptionalParam)"
        #expect(try Router.url(for: pattern, parameters: ["requiredParam": "a"]) == "/required/a")
        #expect(try Router.url(for: pattern, parameters: ["requiredParam": "a", "optionalParam": "b"])
            == "/required/a/optional/b")
        #expect(try Router.url(for: pattern, parameters: ["requiredParam": "a", "moreOptionalParam": "c"])
            == "/required/a/moreOptional/c")
        #expect(try Router.url(for: pattern, parameters: ["requiredParam": "a", "optionalParam": "b", "moreOptionalParam": "c"])
            == "/required/a/optional/b/moreOptional/c")
    }

    @Test func wildcardsTakeTheirComponents() throws {
        #expect(try Router.url(for: "/files/*", wildcard: ["a b", "c/d"]) == "/files/a%20b/c%2Fd")
        #expect(try Router.url(for: "/files/*") == "/files")
    }

    @Test func aMissingOrEmptyParameterIsAnError() {
        let missing = #expect(throws: HiveError.self) { try Router.url(for: "mgj://beauty/:id/:name", parameters: ["name": "x"]) }
        #expect(missing?.code == .invalidParameter)
        #expect(missing?.message == "cannot build a URL from 'mgj://beauty/:id/:name': no value for 'id'")
        let empty = #expect(throws: HiveError.self) { try Router.url(for: "/user/:id", parameters: ["id": ""]) }
        #expect(empty?.message == "cannot build a URL from '/user/:id': parameter 'id' is empty (a path segment cannot be)")
        let malformed = #expect(throws: HiveError.self) { try Router.url(for: "/a/:x/:x") }
        #expect(malformed?.code == .invalidRoute)
    }

    @Test(arguments: [
        ["id": "plain"], ["id": "with space"], ["id": "slash/inside"], ["id": "percent%41"], ["id": "plus+sign"],
        ["id": "ü née ✓"], ["id": "?#&="], ["id": "x", "q": "a+b c&d=e"], ["id": "x", "emptyQuery": ""],
    ])
    func whatIsBuiltOpensWithExactlyTheseValues(values: [String: String]) async throws {
        let router = Hive().router
        let seen = Requests()
        try router.register("hive://Shop/item/:id") { request in
            seen.add("item", request)
            return true
        }
        let url = try Router.url(for: "hive://Shop/item/:id", parameters: values)
        #expect(try await router.open(url), "\(url)")
        #expect(seen.last?.parameters == values, "\(url)")
    }
}
