import Synchronization

/// A registered route: its compiled pattern, handler, order keys, owner and call stats.
final class Route: Sendable {
    typealias Handler = @Sendable (RouteRequest) async throws -> Bool

    let text: String
    let pattern: RoutePattern
    let priority: Int
    /// Registration order within the hive: the tie-breaker after priority.
    let sequence: Int
    let owner: String?
    let handler: Handler
    let stats = Mutex(HandlerStats())

    init(text: String, pattern: RoutePattern, priority: Int, sequence: Int, owner: String?, handler: @escaping Handler) {
        self.text = text
        self.pattern = pattern
        self.priority = priority
        self.sequence = sequence
        self.owner = owner
        self.handler = handler
    }

    /// Whether `self` is tried before `other`: higher priority, then earlier registration.
    func precedes(_ other: Route) -> Bool {
        priority != other.priority ? priority > other.priority : sequence < other.sequence
    }

    /// Calls the handler, timing it for the profiler.
    ///
    /// - Throws: ``HiveError`` `.handlerFailed` (naming the owner) when the handler throws
    ///   something other than a ``HiveError``.
    func call(_ request: RouteRequest) async throws(HiveError) -> Bool {
        let start = MonotonicClock.nanoseconds()
        do {
            let handled = try await handler(request)
            record(since: start, .succeeded)
            return handled
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
