import HiveKit
import Synchronization
import Testing

/// JLRoutes' `JLRMockRouteDefinition`: a route definition of one's own, which here
/// matches as the pattern would and counts how often it was asked.
final class MockMatcher: RouteMatcher {
    let pattern: [String]
    private let asked = Mutex(0)

    init(_ pattern: String) {
        self.pattern = pattern.split(separator: "/").map(String.init)
    }

    var timesAsked: Int { asked.withLock { $0 } }

    func match(_ request: RouteRequest) -> [String: String]? {
        asked.withLock { $0 += 1 }
        guard request.path.count == pattern.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, component) in zip(pattern, request.path) {
            if segment.hasPrefix(":") {
                parameters[String(segment.dropFirst())] = component
            } else if segment != component {
                return nil
            }
        }
        return parameters
    }
}

/// Matches `/v<number>/…` and hands the number on: a matcher that decides the match and
/// the parameters in a way no pattern can.
struct VersionMatcher: RouteMatcher {
    func match(_ request: RouteRequest) -> [String: String]? {
        guard let first = request.path.first, first.hasPrefix("v"), let version = Int(first.dropFirst()) else { return nil }
        return ["version": String(version), "rest": request.path.dropFirst().joined(separator: "/")]
    }
}

/// Custom route definitions (JLRoutes' `testAddingCustomRouteDefinition`,
/// `testChangeDefaultRouteDefinitionClass`) and its handler helpers
/// (`testHandlerBlockForTargetClass`, `testHandlerBlockForWeakTarget`) as closures.
@Suite struct RouteMatcherTests {
    let router = Hive().router
    let seen = Requests()

    @Test func jlroutesAddingCustomRouteDefinition() async throws {
        let mock = MockMatcher("/test")
        try router.register("/test", matcher: mock) { [seen] request in
            seen.add("custom", request)
            return true
        }
        #expect(try await router.open("tests://test"))
        #expect(router.definitions.first?.scheme == nil, "in the global table")
        #expect(router.canOpen("tests://test"))
        #expect(router.unregister("/test"))
        #expect(try await !router.open("tests://test"))
        #expect(mock.timesAsked == 2)
    }

    @Test func jlroutesChangeDefaultRouteDefinitionClass() async throws {
        let made = Mutex<[MockMatcher]>([])
        var options = RouteOptions()
        options.matcher = { pattern in
            let mock = MockMatcher(pattern)
            made.withLock { $0.append(mock) }
            return mock
        }
        router.setOptions(options, scheme: nil)
        try router.register("/foo") { _ in true }
        let mock = try #require(made.withLock { $0.first })
        #expect(mock.pattern == ["foo"])
        #expect(try await router.open("tests://foo"))
        #expect(mock.timesAsked == 1, "the route matched through the mock")
        try router.register("tests://bar") { _ in true }
        #expect(made.withLock { $0.count } == 1, "the tests table has its own options")
    }

    @Test func aMatcherDecidesTheMatchAndTheParameters() async throws {
        try router.register("api://versioned", matcher: VersionMatcher()) { [seen] request in
            seen.add("versioned", request)
            return true
        }
        try router.register("api://v2/users/:id", priority: 5) { [seen] request in
            seen.add("pattern", request)
            return true
        }
        #expect(try await router.open("api://v12/users/7?x=1"))
        #expect(seen.last?.parameters == ["version": "12", "rest": "users/7", "x": "1"])
        #expect(try await router.open("api://v2/users/7"))
        #expect(seen.tags == ["versioned", "pattern"], "priority orders matchers and patterns alike")
        #expect(try await !router.open("api://latest/users"))
        #expect(!router.canOpen("api://latest/users"))
        #expect(router.canOpen("api://v3"))
    }

    @Test func jlroutesHandlerBlockForTargetClass() async throws {
        // JLRRouteHandler's handlerBlockForTargetClass:completion: is a closure that
        // builds the target from the request.
        final class MockTarget: Sendable {
            let routeParams: [String: String]
            init(routeParameters: [String: String]) { routeParams = routeParameters }
        }
        let created = Mutex<MockTarget?>(nil)
        try router.register("/test") { request in
            created.withLock { $0 = MockTarget(routeParameters: request.parameters) }
            return true
        }
        #expect(try await router.open("/test?a=b"))
        #expect(created.withLock { $0?.routeParams } == ["a": "b"])
    }

    @Test func jlroutesHandlerBlockForWeakTarget() async throws {
        // handlerBlockForWeakTarget: a closure holding its target weakly declines once the
        // target is gone.
        final class MockTarget: Sendable {
            let routeParams = Mutex<[String: String]>([:])
            func handleRoute(_ parameters: [String: String]) -> Bool {
                routeParams.withLock { $0 = parameters }
                return true
            }
        }
        var object: MockTarget? = MockTarget()
        try router.register("/test") { [weak object] request in
            object?.handleRoute(request.parameters) ?? false
        }
        #expect(try await router.open("/test"))
        #expect(object?.routeParams.withLock { $0 } == [:])
        object = nil
        #expect(try await !router.open("/test"))
    }
}
