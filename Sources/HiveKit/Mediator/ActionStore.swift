import Synchronization

/// The hive's actions by target (module) and name, plus the not-found handler. Reached
/// through the scoped ``Mediator`` views of ``Hive/mediator`` and ``ModuleContext/mediator``.
final class ActionStore: Sendable {
    typealias NotFoundHandler = @Sendable (ActionRequest) async throws -> any Sendable

    private struct State {
        var targets: [String: [String: Action]] = [:]
        var notFound: (owner: String?, handler: NotFoundHandler)?
        /// The hive stopped: nothing is performed or registered any more.
        var isClosed = false
    }

    private let state = Mutex(State())

    func add(_ action: Action, replacing: Bool) throws(HiveError) {
        try state.withLock { state throws(HiveError) in
            if state.isClosed {
                throw HiveError.hiveStopped("cannot register action '\(action.target).\(action.name)'")
            }
            if !replacing, state.targets[action.target]?[action.name] != nil {
                throw HiveError(
                    .duplicateRegistration, module: action.target,
                    "action '\(action.name)' is already registered; pass replacing: true to replace it")
            }
            state.targets[action.target, default: [:]][action.name] = action
        }
    }

    /// The action, or else the not-found handler and the names of the target's actions.
    ///
    /// - Throws: ``HiveError`` `.refusedEvent` once the hive has stopped.
    func lookup(target: String, action: String) throws(HiveError) -> (Action?, NotFoundHandler?, [String]?) {
        try state.withLock { state throws(HiveError) in
            if state.isClosed { throw HiveError.hiveStopped("cannot perform '\(target).\(action)'") }
            let actions = state.targets[target]
            if let found = actions?[action] { return (found, nil, nil) }
            return (nil, state.notFound?.handler, actions.map { $0.keys.sorted() })
        }
    }

    func contains(target: String, action: String) -> Bool {
        state.withLock { !$0.isClosed && $0.targets[target]?[action] != nil }
    }

    /// Closes the mediator for good once every module was torn down; the actions stay
    /// for the profiler.
    func close() {
        state.withLock { $0.isClosed = true }
    }

    func remove(target: String, action: String) -> Bool {
        state.withLock { state in
            guard state.targets[target]?.removeValue(forKey: action) != nil else { return false }
            if state.targets[target]?.isEmpty == true { state.targets[target] = nil }
            return true
        }
    }

    func setNotFound(_ handler: NotFoundHandler?, owner: String?) {
        state.withLock { $0.notFound = handler.map { (owner, $0) } }
    }

    /// Removes every action of `owner` and a not-found handler it set.
    func removeAll(ownedBy owner: String) {
        state.withLock { state in
            state.targets[owner] = nil
            if let notFound = state.notFound, notFound.owner == owner { state.notFound = nil }
        }
    }

    /// The actions of `target`, sorted by name.
    func actions(of target: String) -> [Action] {
        state.withLock { ($0.targets[target]?.values).map { $0.sorted { $0.name < $1.name } } ?? [] }
    }

    /// Every target with its action names, sorted.
    var catalog: [String: [String]] {
        state.withLock { $0.targets.mapValues { $0.keys.sorted() } }
    }
}
