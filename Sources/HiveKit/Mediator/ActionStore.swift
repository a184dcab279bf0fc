import Synchronization

/// The hive's actions by target (a module, or one of its target types) and name, the
/// targets' own not-found actions, the global not-found handler, and the target types'
/// cached instances. Reached through the scoped ``Mediator`` views of ``Hive/mediator``
/// and ``ModuleContext/mediator``.
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
        /// Instances of target types kept between calls, by target (`module.Target`).
        var cached: [String: (owner: String, instance: any Sendable)] = [:]
        /// The hive stopped: nothing is performed or registered any more.
        var isClosed = false
    }

    private let state = Mutex(State())

    /// Adds `actions`, all or none.
    func add(_ actions: [Action], replacing: Bool) throws(HiveError) {
        try state.withLock { state throws(HiveError) in
            for action in actions {
                if state.isClosed {
                    throw HiveError.hiveStopped("cannot register action '\(action.target).\(action.name)'")
                }
                if !replacing, state.targets[action.target]?[action.name] != nil {
                    let on = action.target == action.owner ? "" : " on target '\(action.target)'"
                    throw HiveError(
                        .duplicateRegistration, module: action.owner,
                        "action '\(action.name)'\(on) is already registered; pass replacing: true to replace it")
                }
            }
            for action in actions { state.targets[action.target, default: [:]][action.name] = action }
        }
    }

    /// The instance of the target type `target` for a call: the cached one, or one `make`
    /// makes, which is kept if `caching` (the first kept wins a race).
    func instance<Target: Sendable>(
        of target: String, owner: String, caching: Bool, make: () throws -> Target
    ) throws -> Target {
        if let cached = state.withLock({ $0.cached[target]?.instance }) as? Target { return cached }
        let made = try make()
        guard caching else { return made }
        return state.withLock { state in
            if let cached = state.cached[target]?.instance as? Target { return cached }
            if !state.isClosed { state.cached[target] = (owner, made) }
            return made
        }
    }

    /// Drops the cached instance of the target type `target`; `false` if none was cached.
    func releaseInstance(of target: String) -> Bool {
        let released = state.withLock { $0.cached.removeValue(forKey: target) }
        return released != nil
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

    /// The action itself, without the not-found fallbacks; `nil` when there is none.
    ///
    /// - Throws: ``HiveError`` `.refusedEvent` once the hive has stopped.
    func action(target: String, action: String) throws(HiveError) -> Action? {
        try state.withLock { state throws(HiveError) in
            if state.isClosed { throw HiveError.hiveStopped("cannot perform '\(target).\(action)'") }
            return state.targets[target]?[action]
        }
    }

    /// The names of `target`'s actions, sorted; `nil` when there is no such target.
    func names(of target: String) -> [String]? {
        state.withLock { $0.targets[target].map { $0.keys.sorted() } }
    }

    func contains(target: String, action: String) -> Bool {
        state.withLock { !$0.isClosed && $0.targets[target]?[action] != nil }
    }

    /// Closes the mediator for good once every module was torn down, dropping the cached
    /// target instances; the actions stay for the profiler.
    func close() {
        let cached = state.withLock { state in
            state.isClosed = true
            defer { state.cached = [:] }
            return state.cached
        }
        _ = consume cached
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

    /// Removes every action of the `owners` (their target types' too, with their cached
    /// instances), their not-found actions and a global not-found handler one of them set.
    func removeAll(ownedBy owners: Set<String>) {
        let dropped = state.withLock { state in
            state.targets = state.targets.filter { _, actions in
                !(actions.first.map { owners.contains($0.value.owner) } ?? false)
            }
            for owner in owners { state.targetNotFound[owner] = nil }
            if let owner = state.notFound?.owner, owners.contains(owner) { state.notFound = nil }
            let dropped = state.cached.filter { owners.contains($0.value.owner) }
            for target in dropped.keys { state.cached[target] = nil }
            return dropped
        }
        _ = consume dropped
    }

    /// Every target's own not-found action, by target.
    var notFoundActions: [Action] {
        state.withLock { state in state.targetNotFound.sorted { $0.key < $1.key }.map(\.value) }
    }

    /// Every target with its action names, sorted.
    var catalog: [String: [String]] {
        state.withLock { $0.targets.mapValues { $0.keys.sorted() } }
    }

    /// Every action, by target then name.
    var all: [Action] {
        state.withLock { state in
            state.targets.sorted { $0.key < $1.key }.flatMap { _, actions in actions.values.sorted { $0.name < $1.name } }
        }
    }
}
