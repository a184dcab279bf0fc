import Synchronization

/// A registered action: its handler, whether URLs may reach it, and call stats.
final class Action: Sendable {
    typealias Handler = @Sendable (ActionRequest) async throws -> any Sendable

    let target: String
    let name: String
    /// Whether ``Mediator/perform(url:extras:)`` may call it; actions are native-only
    /// unless registered with `acceptsURLs: true`.
    let acceptsURLs: Bool
    let handler: Handler
    let stats = Mutex(HandlerStats())

    init(target: String, name: String, acceptsURLs: Bool, handler: @escaping Handler) {
        self.target = target
        self.name = name
        self.acceptsURLs = acceptsURLs
        self.handler = handler
    }

    /// The action as listings show it.
    var definition: ActionDefinition {
        ActionDefinition(target: target, name: name, acceptsURLs: acceptsURLs)
    }

    /// Calls the handler, timing it for the profiler.
    ///
    /// - Throws: a ``HiveError`` the handler threw, or `.handlerFailed` naming the target
    ///   wrapping any other error.
    func call(_ request: ActionRequest) async throws(HiveError) -> any Sendable {
        let start = MonotonicClock.nanoseconds()
        do {
            let value = try await handler(request)
            record(since: start, .succeeded)
            return value
        } catch {
            record(since: start, .failed)
            if let error = error as? HiveError { throw error }
            throw HiveError(.handlerFailed, module: target, "action '\(name)' failed: \(error)", underlying: error)
        }
    }

    private func record(since start: UInt64, _ outcome: HandlerOutcome) {
        let elapsed = MonotonicClock.nanoseconds() &- start
        stats.withLock { $0.record(nanoseconds: elapsed, outcome: outcome) }
    }
}
