import Synchronization

/// A registered route: its compiled pattern (or its own matcher), handler, order keys,
/// owner, whether calls from outside may reach it, and call stats.
final class Route: Sendable {
    /// What the route runs: a handler that accepts or declines, or one that produces a
    /// value (`nil` declines). Kept apart so the common kind costs no extra call.
    enum Body: Sendable {
        case accepts(@Sendable (RouteRequest) async throws -> Bool)
        case produces(@Sendable (RouteRequest) async throws -> (any Sendable)?)
    }

    let text: String
    /// The compiled pattern; for a route with a ``matcher``, only its scheme counts.
    let pattern: RoutePattern
    /// The route's own matcher, which replaces the pattern's matching.
    let matcher: (any RouteMatcher)?
    let priority: Int
    /// Registration order within the hive: the tie-breaker after priority.
    let sequence: Int
    let owner: String?
    /// Registered as callable from outside the process (its owner's configuration may
    /// export it too: ``ModuleDescriptor/exportedRoutes``).
    let exported: Bool
    let body: Body
    let stats = Mutex(HandlerStats())

    init(
        text: String, pattern: RoutePattern, matcher: (any RouteMatcher)?, priority: Int, sequence: Int,
        owner: String?, exported: Bool, body: Body
    ) {
        self.text = text
        self.pattern = pattern
        self.matcher = matcher
        self.priority = priority
        self.sequence = sequence
        self.owner = owner
        self.exported = exported
        self.body = body
    }

    /// Whether `self` is tried before `other`: higher priority, then earlier registration.
    func precedes(_ other: Route) -> Bool {
        priority != other.priority ? priority > other.priority : sequence < other.sequence
    }

    /// The route as listings show it, `exported` as its registration or its owner's
    /// exports say.
    func definition(exported: Bool) -> RouteDefinition {
        RouteDefinition(pattern: text, scheme: pattern.scheme, priority: priority, owner: owner, exported: exported)
    }

    /// Calls the handler, timing it for the profiler.
    ///
    /// - Returns: `nil` when the handler declined; otherwise what it produced, `()` for a
    ///   handler that only accepts.
    /// - Throws: ``HiveError`` `.handlerFailed` (naming the owner) when the handler throws
    ///   something other than a ``HiveError``.
    func call(_ request: RouteRequest) async throws(HiveError) -> (any Sendable)? {
        let start = MonotonicClock.nanoseconds()
        do {
            let result: (any Sendable)?
            switch body {
            case .accepts(let handler): result = try await handler(request) ? () : nil
            case .produces(let handler): result = try await handler(request)
            }
            record(since: start, .succeeded)
            return result
        } catch {
            record(since: start, .failed)
            if let error = error as? HiveError { throw error }
            throw HiveError(
                .handlerFailed, module: owner, "route '\(text)' failed for '\(request.url)': \(error)",
                underlying: error)
        }
    }

    private func record(since start: UInt64, _ outcome: HandlerOutcome) {
        let elapsed = MonotonicClock.nanoseconds() &- start
        stats.withLock { $0.record(nanoseconds: elapsed, outcome: outcome) }
    }
}
