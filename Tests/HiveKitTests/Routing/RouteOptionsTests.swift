import HiveKit
import TestSupport
import Testing

/// JLRoutes' global switches as options of one route table, with its own values
/// (`testDecodePlusSymbols`, `testTreatsHostAsPathComponent`, `setVerboseLoggingEnabled:`).
@Suite struct RouteOptionsTests {
    let router = Hive().router
    let seen = Requests()

    func route(_ pattern: String) throws {
        try router.register(pattern) { [seen] request in
            seen.add(pattern, request)
            return true
        }
    }

    @Test func jlroutesDecodePlusSymbols() async throws {
        try route("/user/view/:userID")
        // On (JLRoutes' YES, HiveKit's default): in the query only; a + in the path and a
        // %2B stay a + (JLRoutes makes both spaces in path parameters too).
        #expect(try await router.open("tests://user/view/joel%2Blevin"))
        #expect(seen.last?["userID"] == "joel+levin")
        #expect(try await router.open("tests://user/view/joel+levin"))
        #expect(seen.last?["userID"] == "joel+levin")
        #expect(try await router.open("tests://user/view/test?name=joel+levin"))
        #expect(seen.last?.parameters == ["userID": "test", "name": "joel levin"])
        #expect(try await router.open("tests://user/view/test?people=joel+levin&people=foo+bar"))
        #expect(seen.last?.query["people"] == ["joel levin", "foo bar"])

        var options = RouteOptions()
        options.decodesPlusInQuery = false
        router.setOptions(options, scheme: nil)
        #expect(router.options(scheme: nil).decodesPlusInQuery == false)
        #expect(try await router.open("tests://user/view/joel%2Blevin"))
        #expect(seen.last?["userID"] == "joel+levin")
        #expect(try await router.open("tests://user/view/joel+levin"))
        #expect(seen.last?["userID"] == "joel+levin")
        #expect(try await router.open("tests://user/view/test?name=joel+levin"))
        #expect(seen.last?.parameters == ["userID": "test", "name": "joel+levin"])
        #expect(try await router.open("tests://user/view/test?people=joel+levin&people=foo+bar"))
        #expect(seen.last?.query["people"] == ["joel+levin", "foo+bar"])
    }

    @Test func eachTableReadsItsURLsWithItsOwnOptions() async throws {
        try route("tests://user/view/:userID")
        try route("/user/view/:userID")
        var options = RouteOptions()
        options.decodesPlusInQuery = false
        router.setOptions(options, scheme: "TESTS")
        #expect(try await router.open("tests://user/view/a?name=joel+levin"))
        #expect(seen.last?.pattern == "tests://user/view/:userID")
        #expect(seen.last?["name"] == "joel+levin")
        #expect(try await router.open("other://user/view/a?name=joel+levin"))
        #expect(seen.last?.pattern == "/user/view/:userID")
        #expect(seen.last?["name"] == "joel levin", "the global table keeps its defaults")
    }

    @Test func jlroutesTreatsHostAsPathComponent() async throws {
        try route("/sign_in")
        try route("/path/:pathid")
        var options = RouteOptions()
        options.alwaysTreatsHostAsPathComponent = false
        router.setOptions(options, scheme: nil)
        #expect(try await router.open("https://www.mydomain.com/sign_in"))
        #expect(seen.last?.pattern == "/sign_in")
        #expect(try await router.open("https://www.mydomain.com/path/3"))
        #expect(seen.last?.pattern == "/path/:pathid")
        #expect(seen.last?["pathid"] == "3")
        #expect(try await router.open("tests://localhost/sign_in"), "localhost is dropped too")
        #expect(try await !router.open("tests://plain/sign_in"), "a host without a dot stays")

        router.setOptions(RouteOptions(), scheme: nil)
        #expect(try await !router.open("https://www.mydomain2.com/sign_in"))
        #expect(try await !router.open("https://www.mydomain2.com/path/3"))
        try route("/www.mydomain2.com/sign_in")
        try route("/www.mydomain2.com/path/:pathid")
        #expect(try await router.open("https://www.mydomain2.com/sign_in"))
        #expect(seen.last?.pattern == "/www.mydomain2.com/sign_in")
        #expect(try await router.open("https://www.mydomain2.com/path/3"))
        #expect(seen.last?.pattern == "/www.mydomain2.com/path/:pathid")
        #expect(seen.last?["pathid"] == "3")
    }

    @Test func aTableWithALoggerTellsHowItRoutes() async throws {
        // JLRoutes' setVerboseLoggingEnabled:, for one table.
        let logs = LogStore()
        var options = RouteOptions()
        options.logger = logs.logger
        router.setOptions(options, scheme: "tests")
        try router.register("tests://return/:value") { request in request["value"] == "yes" }
        #expect(try await !router.open("tests://return/no"))
        #expect(try await router.open("tests://return/yes"))
        #expect(try await router.open("/nothing") == false)
        #expect(logs.all.map(\.message) == [
            "routing 'tests://return/no'", "'tests://return/:value' declined 'tests://return/no'",
            "no route of this table handled 'tests://return/no'",
            "routing 'tests://return/yes'", "'tests://return/:value' handled 'tests://return/yes'",
        ])
        #expect(logs.all.allSatisfy { $0.level == .debug })
    }

    @Test func optionsStayWhenTheTablesRoutesGo() throws {
        var options = RouteOptions()
        options.fallsBackToGlobal = false
        router.setOptions(options, scheme: "shop")
        try route("shop://cart")
        #expect(router.unregisterAll(scheme: "shop") == 1)
        #expect(router.options(scheme: "SHOP").fallsBackToGlobal == false)
        #expect(RouteOptions().fallsBackToGlobal && RouteOptions().decodesPlusInQuery)
        #expect(RouteOptions().alwaysTreatsHostAsPathComponent && !RouteOptions().matchesPrefixes)
    }
}
