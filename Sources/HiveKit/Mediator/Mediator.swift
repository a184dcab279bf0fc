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
/// unregistered. A missing action goes to its target's not-found action (CTMediator's
/// `notFound:` in a target) if the target set one, else to the global not-found handler
/// if one is set, and is otherwise a `.notFound` error. Actions are native-only unless
/// registered with `acceptsURLs: true` (``perform(url:extras:)``). Handlers run on the
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

    var store: ActionStore { hive.actionStore }

    /// Exposes `action` on this module's target.
    ///
    /// - Parameter acceptsURLs: whether ``perform(url:extras:)`` may call it (CTMediator
    ///   refuses URL calls of actions named `native…`; here every action is native-only
    ///   unless it says otherwise). Its handler then gets the URL's query items as
    ///   string parameters.
    /// - Throws: ``HiveError`` `.duplicateRegistration` when this module already has the
    ///   action and `replacing` is `false`; `.unknownModule` through ``Hive/mediator``,
    ///   since only modules are targets; `.refusedEvent` once the hive has stopped.
    public func register(
        _ action: String, replacing: Bool = false, acceptsURLs: Bool = false, handler: @escaping Handler
    ) throws(HiveError) {
        let target = try targetName(for: "action '\(action)'")
        try store.add(Action(target: target, name: action, acceptsURLs: acceptsURLs, handler: handler), replacing: replacing)
    }

    /// Removes this module's `action`; `false` if it had none.
    @discardableResult
    public func unregister(_ action: String) -> Bool {
        guard let owner else { return false }
        return store.remove(target: owner, action: action)
    }

    /// Calls `action` of `target` with `params` (CTMediator's `performTarget:action:params:`).
    ///
    /// - Returns: what the action (or a not-found action or handler) returned.
    /// - Throws: ``HiveError`` `.notFound` when the target or action does not exist and
    ///   nothing handles that; `.refusedEvent` once the hive has stopped; the error of a
    ///   handler that threw (`.handlerFailed` naming the target unless it is a
    ///   ``HiveError``).
    @discardableResult
    public func perform(
        target: String, action: String, params: [String: any Sendable] = [:]
    ) async throws(HiveError) -> any Sendable {
        try await call(ActionRequest(target: target, action: action, parameters: params))
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
        return try Self.cast(result, as: Value.self, target: target, action: action)
    }

    /// Whether `target` exposes `action`.
    public func canPerform(target: String, action: String) -> Bool {
        store.contains(target: target, action: action)
    }

    /// Sets (or, with `nil`, removes) the global handler for a missing target or action;
    /// what it returns is the result of the call. One per hive; it goes away with the
    /// module that set it.
    public func setNotFoundHandler(_ handler: Handler?) {
        store.setNotFound(handler, owner: owner)
    }

    /// Sets (or, with `nil`, removes) this module's not-found action (CTMediator's
    /// `notFound:` in a target): it answers calls of actions this target does not have,
    /// before the global not-found handler. Profiled as `action (not found)`.
    ///
    /// - Throws: ``HiveError`` `.unknownModule` through ``Hive/mediator``.
    public func setNotFoundAction(_ handler: Handler?) throws(HiveError) {
        let target = try targetName(for: "a not-found action")
        store.setTargetNotFound(
            handler.map { Action(target: target, name: "(not found)", acceptsURLs: false, handler: $0) }, target: target)
    }

    /// Every target with its actions' names, sorted.
    public var actions: [String: [String]] { store.catalog }

    /// Every registered action with its target and whether URLs may perform it, by
    /// target then name.
    public var definitions: [ActionDefinition] { store.definitions }

    /// Sends `request` where it goes: the action, the target's not-found action, or the
    /// global not-found handler.
    func call(_ request: ActionRequest) async throws(HiveError) -> any Sendable {
        switch try store.destination(target: request.target, action: request.action) {
        case .action(let action):
            if request.url != nil, !action.acceptsURLs {
                throw HiveError(
                    .notFound, module: request.target,
                    "action '\(request.action)' is native-only: a URL cannot perform it"
                        + " (register it with acceptsURLs: true to allow that)")
            }
            return try await action.call(request)
        case .targetNotFound(let fallback):
            return try await fallback.call(request)
        case .notFound(let handler):
            do {
                return try await handler(request)
            } catch {
                if let error = error as? HiveError { throw error }
                throw HiveError(
                    .handlerFailed, "the not-found handler failed for '\(request.target).\(request.action)': \(error)",
                    underlying: error)
            }
        case .missing(let known):
            throw notFoundError(target: request.target, action: request.action, known: known)
        }
    }

    /// `result` as a `Value`, or a `.typeMismatch` error naming the action.
    static func cast<Value>(_ result: any Sendable, as type: Value.Type, target: String, action: String) throws(HiveError) -> Value {
        guard let value = result as? Value else {
            throw HiveError(
                .typeMismatch, module: target,
                "action '\(action)' returned a \(Swift.type(of: result)), not a \(Value.self)")
        }
        return value
    }

    /// This module's name, which is its target; through the hive there is none.
    private func targetName(for what: String) throws(HiveError) -> String {
        guard let owner else {
            throw HiveError(.unknownModule, "\(what): targets are modules; register actions through a module's context")
        }
        return owner
    }

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
