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
/// unregistered. A module may also offer target types (``ActionTarget``, CTMediator's
/// `Target_A` classes), named with the module (`table.Cells`), made per call or kept
/// between calls when the caller asks (`cachesTarget: true`) until released. A missing
/// action goes to its target's not-found action (CTMediator's `notFound:` in a target) if
/// the target set one, else to the global not-found handler if one is set, and is
/// otherwise a `.notFound` error. Actions are native-only unless registered with
/// `acceptsURLs: true` (``perform(url:extras:)``), and private to the process unless
/// registered with `exported: true` or exported by their module's configuration
/// (``ModuleDescriptor/exportedActions``). Handlers run on the caller's task with no lock
/// held and without the hive's event gate, so they may perform actions or open URLs, even
/// from inside an event hook. Each call is timed in the target module's
/// ``HiveProfile/Module/calls``.
public struct Mediator: Sendable {
    /// An action: takes the request, returns any value (`()` for none).
    public typealias Handler = @Sendable (ActionRequest) async throws -> any Sendable

    let hive: Hive
    /// The module acting; `nil` for the hive itself, which cannot register actions.
    let owner: String?

    var store: ActionStore { hive.actionStore }

    /// Exposes `action` on this module's target.
    ///
    /// - Parameters:
    ///   - action: the action's name, unique within the module.
    ///   - replacing: replace this module's action of that name instead of failing.
    ///   - acceptsURLs: whether ``perform(url:extras:)`` may call it (CTMediator refuses
    ///     URL calls of actions named `native…`; here every action is native-only unless
    ///     it says otherwise). Its handler then gets the URL's query items as string
    ///     parameters.
    ///   - exported: whether a call from outside the process (the control socket's
    ///     `PerformAction`, `hived ctl perform`) may reach it; its handler then gets the
    ///     caller's parameters as strings. Actions are private to the process unless they
    ///     say so (or their module's configuration exports them).
    ///   - handler: performs the action: takes the call's parameters, returns its result.
    /// - Throws: ``HiveError`` `.duplicateRegistration` when this module already has the
    ///   action and `replacing` is `false`; `.unknownModule` through ``Hive/mediator``,
    ///   since only modules are targets; `.refusedEvent` once the hive has stopped.
    public func register(
        _ action: String, replacing: Bool = false, acceptsURLs: Bool = false, exported: Bool = false,
        handler: @escaping Handler
    ) throws(HiveError) {
        let target = try targetName(for: "action '\(action)'")
        try store.add(
            [Action(target: target, name: action, owner: target, acceptsURLs: acceptsURLs, exported: exported, handler: handler)],
            replacing: replacing)
    }

    /// Offers the target type `Target` as the target `module.name` (CTMediator's
    /// `Target_name` class, in a Swift module: `kCTMediatorParamsKeySwiftTargetModuleName`):
    /// a call of one of its ``ActionTarget/actionNames`` uses the instance kept for it, or
    /// one `make` makes, which is kept for later calls if the call says `cachesTarget: true`
    /// (until ``releaseCachedTarget(_:)``, or the module goes).
    ///
    /// - Parameters: `acceptsURLs` and `exported` as ``register(_:replacing:acceptsURLs:exported:handler:)``
    ///   says, for every action of the target.
    /// - Throws: ``HiveError`` `.duplicateRegistration` when the target is registered
    ///   already (nothing is then registered); `.invalidParameter` for an empty name or one
    ///   with a `/`; `.unknownModule` through ``Hive/mediator``; `.refusedEvent` once the
    ///   hive has stopped.
    public func register<Target: ActionTarget>(
        target name: String, acceptsURLs: Bool = false, exported: Bool = false,
        make: @escaping @Sendable () throws -> Target
    ) throws(HiveError) {
        let owner = try targetName(for: "target '\(name)'")
        guard !name.isEmpty, !name.contains("/") else {
            throw HiveError(.invalidParameter, module: owner, "malformed target name '\(name)'")
        }
        let target = "\(owner).\(name)"
        let store = store
        if store.names(of: target) != nil {
            throw HiveError(.duplicateRegistration, module: owner, "target '\(target)' is already registered")
        }
        try store.add(
            Target.actionNames.map { action in
                Action(target: target, name: action, owner: owner, acceptsURLs: acceptsURLs, exported: exported) { request in
                    try await store.instance(of: target, owner: owner, caching: request.cachesTarget, make: make)
                        .perform(request)
                }
            },
            replacing: false)
    }

    /// Drops the instance of the target type `target` (`module.Target`) kept for later
    /// calls (CTMediator's `releaseCachedTargetWithFullTargetName:`); the next call makes a
    /// new one.
    ///
    /// - Returns: `false` when none was kept.
    @discardableResult
    public func releaseCachedTarget(_ target: String) -> Bool {
        store.releaseInstance(of: target)
    }

    /// Removes this module's `action`; `false` if it had none.
    @discardableResult
    public func unregister(_ action: String) -> Bool {
        guard let owner else { return false }
        return store.remove(target: owner, action: action)
    }

    /// Calls `action` of `target` with `params` (CTMediator's
    /// `performTarget:action:params:shouldCacheTarget:`).
    ///
    /// - Parameters:
    ///   - target: a module's name, or one of its target types (`module.Target`).
    ///   - action: the action's name.
    ///   - params: the call's parameters, any `Sendable` values.
    ///   - cachesTarget: for a target type's action, keep the instance made for this call
    ///     for later calls (one kept already is used either way).
    /// - Returns: what the action (or a not-found action or handler) returned.
    /// - Throws: ``HiveError`` `.notFound` when the target or action does not exist and
    ///   nothing handles that; `.refusedEvent` once the hive has stopped; the error of a
    ///   handler that threw (`.handlerFailed` naming the target unless it is a
    ///   ``HiveError``).
    @discardableResult
    public func perform(
        target: String, action: String, params: [String: any Sendable] = [:], cachesTarget: Bool = false
    ) async throws(HiveError) -> any Sendable {
        try await call(
            ActionRequest(
                target: target, action: action, parameters: params, url: nil, queryNames: [], cachesTarget: cachesTarget))
    }

    /// Calls `action` of `target` like ``perform(target:action:params:cachesTarget:)`` and
    /// returns its result as a `Value`.
    ///
    /// - Throws: as ``perform(target:action:params:cachesTarget:)``, or `.typeMismatch`
    ///   when the result is not a `Value`.
    public func perform<Value>(
        target: String, action: String, params: [String: any Sendable] = [:], cachesTarget: Bool = false,
        as type: Value.Type
    ) async throws(HiveError) -> Value {
        let result = try await perform(target: target, action: action, params: params, cachesTarget: cachesTarget)
        return try Self.cast(result, as: Value.self, target: target, action: action)
    }

    /// Whether `target` exposes `action`.
    package func canPerform(target: String, action: String) -> Bool {
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
            handler.map {
                Action(target: target, name: "(not found)", owner: target, acceptsURLs: false, exported: false, handler: $0)
            },
            target: target)
    }

    /// Every target with its actions' names, sorted.
    public var actions: [String: [String]] { store.catalog }

    /// Every registered action with its target, owner, and whether URLs and calls from
    /// outside may perform it, by target then name.
    public var definitions: [ActionDefinition] {
        store.all.map { $0.definition(exported: $0.exported || hive.exportsByDescriptor($0)) }
    }

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
        HiveError(.notFound, module: known == nil ? nil : target, notFoundMessage(target: target, action: action, known: known))
    }

    /// What a call of a missing `action` of `target` is told: the target's actions, or
    /// why there is no such target.
    func notFoundMessage(target: String, action: String) -> String {
        notFoundMessage(target: target, action: action, known: store.names(of: target))
    }

    private func notFoundMessage(target: String, action: String, known: [String]?) -> String {
        if let known {
            return "target '\(target)' has no action '\(action)' (actions: \(known.joined(separator: ", ")))"
        }
        let reason = hive.module(named: target) == nil
            ? "no module named '\(target)' is registered" : "module '\(target)' exposes no actions"
        return "no target '\(target)' for action '\(action)': \(reason)"
    }
}
