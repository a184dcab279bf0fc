/// URL routes between modules (JLRoutes, MGJRouter): a module registers patterns such as
/// `hive://cache/flush/:region`; anyone opens URLs without knowing who handles them.
///
/// ```swift
/// try context.router.register("hive://cache/flush/:region") { request in
///     await cache.flush(region: request["region"]!)
///     return true                                  // false declines: the next match is tried
/// }
/// try await context.router.open("hive://cache/flush/eu-west?reason=deploy%20done")
/// ```
///
/// Patterns: literal segments, `:name` parameters, a trailing `*` wildcard (zero or more
/// components), optional groups `/a(/:b)`. The scheme selects a table (`hive://…`); a
/// pattern without one (`/cache/flush`) goes to the global table, which every scheme
/// falls back to unless told otherwise (JLRoutes falls back only when asked). The first
/// path component is the host, always, even `localhost` or a name with a dot (JLRoutes
/// drops those hosts unless told otherwise); it is compared without case like the
/// scheme, the rest of the path with case.
///
/// For a URL the router tries, in order, the matching routes of its scheme's table, then
/// those of the global table, each table by priority (higher first) and then
/// registration order, until a handler accepts it; if none does, the unmatched-URL
/// handler of the URL's scheme, or else the global one, is called. A handler may also
/// produce a value for the caller (``register(_:priority:producing:handler:)``,
/// ``value(for:extras:as:)``). Handlers run on the caller's task with no lock held and
/// without the hive's event gate, so they may open URLs or perform actions, even from
/// inside an event hook. Each call is timed in the owner module's
/// ``HiveProfile/Module/calls``.
///
/// Reached through ``ModuleContext/router`` (routes belong to that module and disappear
/// when it is unregistered) or ``Hive/router`` (routes belong to the hive).
public struct Router: Sendable {
    /// A route handler: returns `true` when it handled the URL, `false` to decline.
    public typealias Handler = @Sendable (RouteRequest) async throws -> Bool

    let store: RouteStore
    let owner: String?

    init(store: RouteStore, owner: String?) {
        self.store = store
        self.owner = owner
    }

    /// Registers `handler` for `pattern`, compiled now.
    ///
    /// Several routes may share a pattern; they are tried in priority, then registration,
    /// order.
    /// - Throws: ``HiveError`` `.invalidRoute` for a malformed pattern; `.refusedEvent`
    ///   once the hive has stopped.
    public func register(_ pattern: String, priority: Int = 0, handler: @escaping Handler) throws(HiveError) {
        try add(pattern, priority: priority, body: .accepts(handler))
    }

    func add(_ pattern: String, priority: Int, body: Route.Body) throws(HiveError) {
        do {
            try store.add(pattern, priority: priority, owner: owner, body: body)
        } catch {
            throw HiveError(error.code, module: owner, error.message)
        }
    }

    /// Removes this owner's routes registered with exactly `pattern`: all of them
    /// (JLRoutes' `removeRoute:` removes the first).
    ///
    /// - Returns: `false` when there were none.
    @discardableResult
    public func unregister(_ pattern: String) -> Bool {
        store.remove(pattern, owner: owner)
    }

    /// Routes `url` to the first matching handler that accepts it, passing `extras`
    /// beside the URL's own parameters (JLRoutes' `routeURL:withParameters:`, MGJRouter's
    /// `openURL:withUserInfo:`).
    ///
    /// - Returns: `true` when a handler accepted the URL (or produced a value); `false`
    ///   when none matched or all declined (the unmatched-URL handler, if any, was called).
    /// - Throws: ``HiveError`` `.invalidRoute` for a malformed URL (nothing is called),
    ///   `.refusedEvent` once the hive has stopped, or the error of a handler that threw
    ///   (wrapped as `.handlerFailed` naming its module unless it is a ``HiveError``);
    ///   later matches are not tried.
    @discardableResult
    public func open(_ url: String, extras: [String: any Sendable] = [:]) async throws(HiveError) -> Bool {
        try await route(url, extras: extras) != nil
    }

    /// Calls the matching handlers of `url` in order until one handles it.
    ///
    /// - Returns: the route that took the URL and what it produced (`()` for one that
    ///   only accepts); `nil` when none did, after calling the unmatched-URL handler.
    func route(
        _ url: String, extras: [String: any Sendable]
    ) async throws(HiveError) -> (result: any Sendable, route: Route)? {
        let parsed = try RouteURL(url)
        guard let (matches, unmatched) = store.candidates(for: parsed) else {
            throw HiveError.hiveStopped("cannot open '\(url)'")
        }
        if !matches.isEmpty {
            var query: [String: String] = [:]
            var allQuery: [String: [String]] = [:]
            for item in parsed.query {
                query[item.name] = item.value
                allQuery[item.name, default: []].append(item.value)
            }
            for match in matches {
                var parameters = query
                for (name, value) in match.parameters { parameters[name] = value }
                let request = RouteRequest(
                    url: url, pattern: match.route.text, scheme: parsed.scheme, parameters: parameters,
                    query: allQuery, wildcard: Array(match.wildcard), extras: extras, owner: match.route.owner)
                if let result = try await match.route.call(request) { return (result, match.route) }
            }
        }
        if let unmatched {
            do {
                try await unmatched(url)
            } catch {
                if let error = error as? HiveError { throw error }
                throw HiveError(.handlerFailed, "the unmatched-URL handler failed for '\(url)': \(error)", underlying: error)
            }
        }
        return nil
    }

    /// Whether some route matches `url`, without calling anything (a matching handler
    /// may still decline). A malformed URL answers `false`.
    public func canOpen(_ url: String) -> Bool {
        guard let parsed = try? RouteURL(url) else { return false }
        return store.hasMatch(parsed)
    }

    /// Sets (or, with `nil`, removes) the handler called with a URL no route handled
    /// (JLRoutes' `unmatchedURLHandler`): for URLs of `scheme`, or with `nil` for every
    /// URL whose scheme has none of its own. One per scheme and one global; the latest
    /// wins, and each goes away with the module that set it. Only one is called for a
    /// URL (JLRoutes may call both the scheme's and the global one).
    public func setUnmatchedHandler(scheme: String? = nil, _ handler: (@Sendable (String) async throws -> Void)?) {
        store.setUnmatched(handler, scheme: scheme, owner: owner)
    }

    /// Whether URLs of `scheme` that no route of that scheme handled are tried against
    /// the global table (JLRoutes' `shouldFallbackToGlobalRoutes`); `true` by default.
    public func setFallsBackToGlobal(_ fallsBack: Bool, scheme: String) {
        store.setFallback(fallsBack, scheme: scheme)
    }

    /// Every registered pattern, in registration order.
    public var patterns: [String] { store.routes.map(\.text) }

    /// Every registered route with its table, priority and owner, in registration order
    /// (JLRoutes' `allRoutes`).
    public var definitions: [RouteDefinition] { store.routes.map(\.definition) }
}
