import Synchronization

/// The hive's actions by target (module) and name, the targets' own not-found actions,
/// and the global not-found handler. Reached through the scoped ``Mediator`` views of
/// ``Hive/mediator`` and ``ModuleContext/mediator``.
final class ActionStore: Sendable {
    typealias NotFoundHandler = @Sendable (ActionRequest) async throws -> any Sendable

    /// Where a call goes.
    enum Destination {
        /// The action itself.
        case action(Action)
        /// The target's not-found action (CTMediator's `notFound:`).
        case targetNotFound(Action)
        /// The global not-found handler.
        case notFound(NotFoundHandler)
        /// Nowhere: the target's action names, or `nil` when there is no such target.
        case missing(known: [String]?)
    }

    private struct State {
        var targets: [String: [String: Action]] = [:]
        /// Each target's not-found action, by target.
        var targetNotFound: [String: Action] = [:]
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

    /// Where a call of `action` of `target` goes: the action, else the target's not-found
    /// action, else the global not-found handler.
    ///
    /// - Throws: ``HiveError`` `.refusedEvent` once the hive has stopped.
    func destination(target: String, action: String) throws(HiveError) -> Destination {
        try state.withLock { state throws(HiveError) in
            if state.isClosed { throw HiveError.hiveStopped("cannot perform '\(target).\(action)'") }
            let actions = state.targets[target]
            if let found = actions?[action] { return .action(found) }
            if let fallback = state.targetNotFound[target] { return .targetNotFound(fallback) }
            if let notFound = state.notFound?.handler { return .notFound(notFound) }
            return .missing(known: actions.map { $0.keys.sorted() })
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

    /// Sets or removes `target`'s own not-found action.
    func setTargetNotFound(_ action: Action?, target: String) {
        state.withLock { $0.targetNotFound[target] = action }
    }

    /// Removes every action of the `owners`, their not-found actions and a global
    /// not-found handler one of them set.
    func removeAll(ownedBy owners: Set<String>) {
        state.withLock { state in
            for owner in owners {
                state.targets[owner] = nil
                state.targetNotFound[owner] = nil
            }
            if let owner = state.notFound?.owner, owners.contains(owner) { state.notFound = nil }
        }
    }

    /// The actions of `target`, sorted by name, then its not-found action.
    func actions(of target: String) -> [Action] {
        state.withLock { state in
            let actions = (state.targets[target]?.values).map { $0.sorted { $0.name < $1.name } } ?? []
            return actions + (state.targetNotFound[target].map { [$0] } ?? [])
        }
    }

    /// Every target with its action names, sorted.
    var catalog: [String: [String]] {
        state.withLock { $0.targets.mapValues { $0.keys.sorted() } }
    }

    /// Every action, by target then name.
    var definitions: [ActionDefinition] {
        state.withLock { state in
            state.targets.sorted { $0.key < $1.key }.flatMap { _, actions in
                actions.values.sorted { $0.name < $1.name }.map(\.definition)
            }
        }
    }
}
