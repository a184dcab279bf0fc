import HiveKit
import Synchronization
import TestSupport
import Testing

/// A value handed to a route beside its URL: not a string, not even `Equatable`.
final class Shopper: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

/// Extra values with a call, typed parameters, and routes that produce a value.
@Suite struct RouteExtrasTests {
    let router = Hive().router
    let seen = Requests()

    @Test func extrasReachTheHandlerBesideTheURLsParameters() async throws {
        let seen = seen
        try router.register("/foo/:routeParam") { request in
            seen.add("foo", request)
            return true
        }
        // JLRoutes' testRoutingWithParameters.
        let shopper = Shopper(name: "Ada")
        #expect(try await router.open("/foo/bar", extras: ["stringParam": "stringValue", "nonStringParam": 123, "shopper": shopper]))
        let request = try #require(seen.last)
        #expect(request.parameters == ["routeParam": "bar"])
        #expect(request.extras.count == 3)
        #expect(try request.parameter("stringParam", as: String.self) == "stringValue")
        #expect(try request.parameter("nonStringParam", as: Int.self) == 123)
        #expect(try request.parameter("shopper", as: Shopper.self) === shopper)
        #expect(try request.parameter("routeParam", as: String.self) == "bar")
    }

    @Test func theURLsParametersWinOverExtrasOfTheSameName() async throws {
        try router.register("/user/:id") { [seen] request in
            seen.add("user", request)
            return true
        }
        #expect(try await router.open("/user/7?tab=posts", extras: ["id": 99, "tab": "likes", "extra": true]))
        let request = try #require(seen.last)
        #expect(try request.parameter("id", as: Int.self) == 7)
        #expect(try request.parameter("tab", as: String.self) == "posts")
        #expect(try request.parameter("extra", as: Bool.self))
        #expect(request.extras["id"] as? Int == 99, "the caller's value stays readable")
    }

    @Test func typedAccessParsesURLStringsAndNamesWhatIsWrong() async throws {
        try router.register("hive://cache/:region/:limit") { [seen] request in
            seen.add("cache", request)
            return true
        }
        #expect(try await router.open("hive://cache/eu/12?ratio=0.5&dry=true", extras: ["when": 3]))
        let request = try #require(seen.last)
        #expect(try request.parameter("limit", as: Int.self) == 12)
        #expect(try request.parameter("ratio", as: Double.self) == 0.5)
        #expect(try request.parameter("dry", as: Bool.self))
        let notANumber = #expect(throws: HiveError.self) { try request.parameter("region", as: Int.self) }
        #expect(notANumber?.code == .invalidParameter)
        #expect(notANumber?.message == "route 'hive://cache/:region/:limit': parameter 'region' is the string 'eu', not a Int")
        let missing = #expect(throws: HiveError.self) { try request.parameter("nope", as: String.self) }
        #expect(missing?.message == "route 'hive://cache/:region/:limit' needs parameter 'nope'")
        let extraOfAnotherType = #expect(throws: HiveError.self) { try request.parameter("when", as: String.self) }
        #expect(extraOfAnotherType?.message.hasSuffix("parameter 'when' is a Int, not a String") == true)
    }

    @Test func aRouteProducesAValueForItsCaller() async throws {
        // MGJRouter's demoObjectForURL: registerURLPattern:toObjectHandler: + objectForURL:.
        try router.register("mgj://search_top_bar", producing: String.self) { _ in "search bar" }
        #expect(try await router.value(for: "mgj://search_top_bar", as: String.self) == "search bar")
        #expect(try await router.open("mgj://search_top_bar"), "open still says whether it was handled")
    }

    @Test func aProducingRouteCanDeclineAndTheNextMatchAnswers() async throws {
        try router.register("/size/:region", priority: 10, producing: Int.self) { request in
            request["region"] == "eu" ? 42 : nil
        }
        try router.register("/size/:region", producing: Int.self) { _ in 0 }
        #expect(try await router.value(for: "/size/eu", as: Int.self) == 42)
        #expect(try await router.value(for: "/size/us", as: Int.self) == 0)
    }

    @Test func theHandlerMayCompleteLaterAndTheCallerAwaitsIt() async throws {
        // MGJRouter's demoCompletion: the handler completes asynchronously.
        try router.register("mgj://detail", producing: String.self) { _ in
            await withCheckedContinuation { continuation in
                Task.detached { continuation.resume(returning: "pushed") }
            }
        }
        #expect(try await router.value(for: "mgj://detail", extras: ["animated": true], as: String.self) == "pushed")
    }

    @Test func valueForNamesWhatWentWrong() async throws {
        let unmatched = Mutex<[String]>([])
        router.setUnmatchedHandler { url in unmatched.withLock { $0.append(url) } }
        try router.register("/accepts") { _ in true }
        try router.register("/number", producing: Int.self) { _ in 1 }
        let none = await #expect(throws: HiveError.self) { try await router.value(for: "/nowhere", as: Int.self) }
        #expect(none?.code == .notFound)
        #expect(none?.message == "no route handled '/nowhere'")
        #expect(unmatched.withLock { $0 } == ["/nowhere"])
        let noValue = await #expect(throws: HiveError.self) { try await router.value(for: "/accepts", as: Int.self) }
        #expect(noValue?.code == .typeMismatch)
        #expect(noValue?.message == "route '/accepts' produced no value for '/accepts', not a Int")
        let other = await #expect(throws: HiveError.self) { try await router.value(for: "/number", as: String.self) }
        #expect(other?.message == "route '/number' produced a Int for '/number', not a String")
    }

    @Test func aProducingRouteIsProfiledAndNamedWhenItThrows() async throws {
        struct Broken: Error {}
        struct Offering: Module {
            func setup(_ context: ModuleContext) async throws {
                try context.router.register("hive://offering/answer", producing: Int.self) { _ in 42 }
                try context.router.register("hive://offering/broken", producing: Int.self) { _ in throw Broken() }
            }
        }
        let hive = try makeHive([(Offering(), ModuleDescriptor(name: "offering"))])
        try await hive.start()
        #expect(try await hive.router.value(for: "hive://offering/answer", as: Int.self) == 42)
        let error = await #expect(throws: HiveError.self) { try await hive.router.value(for: "hive://offering/broken", as: Int.self) }
        #expect(error?.code == .handlerFailed)
        #expect(error?.module == "offering")
        let calls = try #require(hive.profile.modules.first?.calls)
        #expect(calls["route hive://offering/answer"]?.calls == 1)
        #expect(calls["route hive://offering/broken"]?.failures == 1)
        await hive.stop()
    }
}
