import Synchronization

/// A registered action: its handler, whether URLs and calls from outside the process may
/// reach it, and call stats.
final class Action: Sendable {
    typealias Handler = @Sendable (ActionRequest) async throws -> any Sendable

    /// The target: the module itself, or one of its target types (`module.Target`).
    let target: String
    let name: String
    /// The module that registered it.
    let owner: String
    /// Whether ``Mediator/perform(url:extras:)`` may call it; actions are native-only
    /// unless registered with `acceptsURLs: true`.
    let acceptsURLs: Bool
    /// Registered as callable from outside the process (its module's configuration may
    /// export it too: ``ModuleDescriptor/exportedActions``).
    let exported: Bool
    let handler: Handler
    let stats = Mutex(HandlerStats())

    init(target: String, name: String, owner: String, acceptsURLs: Bool, exported: Bool, handler: @escaping Handler) {
        self.target = target
        self.name = name
        self.owner = owner
        self.acceptsURLs = acceptsURLs
        self.exported = exported
        self.handler = handler
    }

    /// The action as listings show it, `exported` as its registration or its module's
    /// exports say.
    func definition(exported: Bool) -> ActionDefinition {
        ActionDefinition(target: target, name: name, acceptsURLs: acceptsURLs, owner: owner, exported: exported)
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
            throw HiveError(.handlerFailed, module: owner, "action '\(name)' failed: \(error)", underlying: error)
        }
    }

    private func record(since start: UInt64, _ outcome: HandlerOutcome) {
        let elapsed = MonotonicClock.nanoseconds() &- start
        stats.withLock { $0.record(nanoseconds: elapsed, outcome: outcome) }
    }
}
