/// Target-action calls between modules (CTMediator): a module exposes named actions
/// that take a parameter dictionary and return a value; anyone performs them by target
/// (the module's name) and action name, without importing the module.
///
/// ```swift
/// // in the cache module's setup
/// try context.mediator.register("flush") { request in
///     try await cache.flush(region: request.parameter("region", as: String.self))
/// }
/// // anywhere else
/// let count = try await context.mediator.perform(
///     target: "cache", action: "size", params: [:], as: Int.self)
/// ```
///
/// Targets are the registered modules themselves: an action is registered through
/// ``ModuleContext/mediator`` under the module's name and disappears when the module is
/// unregistered. A missing target or action goes to the not-found handler (CTMediator's
/// `notFound:`) if one is set, and is otherwise a `.notFound` error. Handlers run on the
/// caller's task with no lock held and without the hive's event gate, so they may
/// perform actions or open URLs, even from inside an event hook. Each call is timed in
/// the target module's ``HiveProfile/Module/calls``.
public struct Mediator: Sendable {
    /// An action: takes the request, returns any value (`()` for none).
    public typealias Handler = @Sendable (ActionRequest) async throws -> any Sendable

    let hive: Hive
    /// The module acting; `nil` for the hive itself, which cannot register actions.
    let owner: String?

    init(hive: Hive, owner: String?) {
        self.hive = hive
        self.owner = owner
    }

    private var store: ActionStore { hive.actionStore }

    /// Exposes `action` on this module's target.
    ///
    /// - Throws: ``HiveError`` `.duplicateRegistration` when this module already has the
    ///   action and `replacing` is `false`; `.unknownModule` through ``Hive/mediator``,
    ///   since only modules are targets.
    public func register(_ action: String, replacing: Bool = false, handler: @escaping Handler) throws(HiveError) {
        guard let owner else {
            throw HiveError(
                .unknownModule,
                "action '\(action)': targets are modules; register actions through a module's context")
        }
        try store.add(Action(target: owner, name: action, handler: handler), replacing: replacing)
    }

    /// Removes this module's `action`; `false` if it had none.
    @discardableResult
    public func unregister(_ action: String) -> Bool {
        guard let owner else { return false }
        return store.remove(target: owner, action: action)
    }

    /// Calls `action` of `target` with `params` (CTMediator's `performTarget:action:params:`).
    ///
    /// - Returns: what the action (or the not-found handler) returned.
    /// - Throws: ``HiveError`` `.notFound` when the target or action does not exist and no
    ///   not-found handler is set; `.refusedEvent` once the hive has stopped; the error of
    ///   a handler that threw (`.handlerFailed` naming the target unless it is a
    ///   ``HiveError``).
    @discardableResult
    public func perform(
        target: String, action: String, params: [String: any Sendable] = [:]
    ) async throws(HiveError) -> any Sendable {
        let request = ActionRequest(target: target, action: action, parameters: params)
        let (found, notFound, known) = try store.lookup(target: target, action: action)
        if let found { return try await found.call(request) }
        if let notFound {
            do {
                return try await notFound(request)
            } catch {
                if let error = error as? HiveError { throw error }
                throw HiveError(
                    .handlerFailed, "the not-found handler failed for '\(target).\(action)': \(error)",
                    underlying: error)
            }
        }
        throw notFoundError(target: target, action: action, known: known)
    }

    /// Calls `action` of `target` like ``perform(target:action:params:)`` and returns its
    /// result as a `Value`.
    ///
    /// - Throws: as ``perform(target:action:params:)``, or `.typeMismatch` when the
    ///   result is not a `Value`.
    public func perform<Value>(
        target: String, action: String, params: [String: any Sendable] = [:], as type: Value.Type
    ) async throws(HiveError) -> Value {
        let result = try await perform(target: target, action: action, params: params)
        guard let value = result as? Value else {
            throw HiveError(
                .typeMismatch, module: target,
                "action '\(action)' returned a \(Swift.type(of: result)), not a \(Value.self)")
        }
        return value
    }

    /// Whether `target` exposes `action`.
    public func canPerform(target: String, action: String) -> Bool {
        store.contains(target: target, action: action)
    }

    /// Sets (or, with `nil`, removes) the handler for a missing target or action; what it
    /// returns is the result of the call. One per hive; it goes away with the module that
    /// set it.
    public func setNotFoundHandler(_ handler: Handler?) {
        store.setNotFound(handler, owner: owner)
    }

    /// Every target with its actions' names, sorted.
    public var actions: [String: [String]] { store.catalog }

    private func notFoundError(target: String, action: String, known: [String]?) -> HiveError {
        if let known {
            return HiveError(
                .notFound, module: target,
                "target '\(target)' has no action '\(action)' (actions: \(known.joined(separator: ", ")))")
        }
        let reason = hive.module(named: target) == nil
            ? "no module named '\(target)' is registered" : "module '\(target)' exposes no actions"
        return HiveError(.notFound, "no target '\(target)' for action '\(action)': \(reason)")
    }
}
