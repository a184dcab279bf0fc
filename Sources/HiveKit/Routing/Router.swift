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
/// components), optional groups `/a(/:b)`, a `#` where the URL's fragment begins
/// (`/user#/view/:id`, as JLRoutes matches them). The scheme selects a table
/// (`hive://…`); a pattern without one (`/cache/flush`) goes to the global table, which
/// every scheme falls back to unless told otherwise (JLRoutes falls back only when
/// asked). The first path component is the host, always, even `localhost` or a name with
/// a dot (JLRoutes drops those hosts unless told otherwise); it is compared without case
/// like the scheme, the rest of the path with case. Each table has its
/// ``RouteOptions`` (JLRoutes' global switches, MGJRouter's prefix matches and suffixes),
/// and a route may bring a ``RouteMatcher`` of its own.
///
/// For a URL the router tries, in order, the matching routes of its scheme's table, then
/// those of the global table; within a table those that name the URL's fragment, then the
/// exact matches by priority (higher first) and then registration order, then (if the
/// table matches prefixes) the longer patterns first; until a handler accepts it. If none
/// does, the unmatched-URL handler of the URL's scheme, or else the global one, is
/// called. A handler may also produce a value for the caller
/// (``register(_:priority:exported:matcher:producing:handler:)``,
/// ``value(for:extras:as:)``). Handlers run on the caller's task with no lock held and
/// without the hive's event gate, so they may open URLs or perform actions, even from
/// inside an event hook. Each call is timed in the owner module's
/// ``HiveProfile/Module/calls``.
///
/// Reached through ``ModuleContext/router`` (routes belong to that module and disappear
/// when it is unregistered) or ``Hive/router`` (routes belong to the hive). Only routes
/// registered with `exported: true`, or exported by their module's configuration
/// (``ModuleDescriptor/exportedRoutes``), can be opened from outside the process.
public struct Router: Sendable {
    /// A route handler: returns `true` when it handled the URL, `false` to decline.
    public typealias Handler = @Sendable (RouteRequest) async throws -> Bool

    let hive: Hive
    let owner: String?

    var store: RouteStore { hive.routeStore }

    /// Registers `handler` for `pattern`, compiled now under its table's options.
    ///
    /// Several routes may share a pattern; they are tried in priority, then registration,
    /// order.
    /// - Parameters:
    ///   - pattern: `scheme://host/path/:name(/optional)/*`; without a scheme, the route
    ///     goes to the global table.
    ///   - priority: higher is tried first; 0 by default.
    ///   - exported: whether a call from outside the process (the control socket's
    ///     `OpenURL`, `hived ctl open`) may reach it; routes are private to the process
    ///     unless they say so (or their module's configuration exports them).
    ///   - matcher: the route's own way of matching (JLRoutes' custom route definition);
    ///     then only the pattern's scheme counts, and the pattern names the route.
    ///   - handler: handles a matching URL: `true` when it did, `false` to decline.
    /// - Throws: ``HiveError`` `.invalidRoute` for a malformed pattern; `.refusedEvent`
    ///   once the hive has stopped.
    public func register(
        _ pattern: String, priority: Int = 0, exported: Bool = false, matcher: (any RouteMatcher)? = nil,
        handler: @escaping Handler
    ) throws(HiveError) {
        try add(pattern, priority: priority, exported: exported, matcher: matcher, body: .accepts(handler))
    }

    func add(
        _ pattern: String, priority: Int, exported: Bool, matcher: (any RouteMatcher)?, body: Route.Body
    ) throws(HiveError) {
        do {
            try store.add(pattern, matcher: matcher, priority: priority, owner: owner, exported: exported, body: body)
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

    /// Removes this owner's routes in the table of `scheme`, or with `nil` in the global
    /// table (JLRoutes' `unregisterRouteScheme:`, `[[JLRoutes globalRoutes] removeAllRoutes]`).
    /// Routes of other owners stay, and so do the table's options and unmatched handler.
    ///
    /// - Returns: how many routes were removed.
    @discardableResult
    public func unregisterAll(scheme: String?) -> Int {
        store.removeAll(owner: owner, scheme: scheme)
    }

    /// Removes every route of this owner, in every table (JLRoutes'
    /// `unregisterAllRouteSchemes`); other owners' routes stay.
    ///
    /// - Returns: how many routes were removed.
    @discardableResult
    public func unregisterAll() -> Int {
        store.removeAll(owner: owner)
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
        try await route(url, extras: extras).handled != nil
    }

    /// What routing a URL did: the route that took it and what it produced (`()` for one
    /// that only accepts), if one did; how many matching routes were called, and the
    /// first left out because the caller may not reach it.
    struct Routing {
        var handled: (result: any Sendable, route: Route)?
        var called = 0
        var refused: Route?
    }

    /// Calls the matching handlers of `url` in order until one handles it; with
    /// `admitting` (a call from outside the process, whose `extras` are text), only the
    /// routes it admits, and no unmatched-URL handler.
    func route(
        _ url: String, extras: [String: any Sendable], admitting admits: ((Route) -> Bool)? = nil
    ) async throws(HiveError) -> Routing {
        let parsed = try RouteURL(url)
        guard let (tables, unmatched) = store.candidates(for: parsed, text: url) else {
            throw HiveError.hiveStopped("cannot open '\(url)'")
        }
        var routing = Routing()
        for table in tables {
            let logger = table.logger
            logger?.debug("routing '\(url)'")
            let (query, allQuery) = Self.query(of: table.url)
            for match in Self.ordered(table, url: url, query: query, allQuery: allQuery, extras: extras) {
                if let admits, !admits(match.route) {
                    routing.refused = routing.refused ?? match.route
                    continue
                }
                routing.called += 1
                var parameters = query
                for (name, value) in match.parameters { parameters[name] = value }
                let request = RouteRequest(
                    url: url, pattern: match.route.text, scheme: parsed.scheme, parameters: parameters,
                    query: allQuery, wildcard: Array(match.wildcard), path: match.path, extras: extras,
                    owner: match.route.owner, extrasAreText: admits != nil)
                if let result = try await match.route.call(request) {
                    logger?.debug("'\(match.route.text)'\(Self.owned(match.route)) handled '\(url)'")
                    routing.handled = (result, match.route)
                    return routing
                }
                logger?.debug("'\(match.route.text)'\(Self.owned(match.route)) declined '\(url)'")
            }
            logger?.debug("no route of this table handled '\(url)'")
        }
        if admits == nil, let unmatched {
            do {
                try await unmatched(url)
            } catch {
                if let error = error as? HiveError { throw error }
                throw HiveError(.handlerFailed, "the unmatched-URL handler failed for '\(url)': \(error)", underlying: error)
            }
        }
        return routing
    }

    private static func owned(_ route: Route) -> String {
        route.owner.map { " of module '\($0)'" } ?? ""
    }

    /// The query items of `url`: the last value of each name, and all of them in order.
    private static func query(of url: RouteURL) -> ([String: String], [String: [String]]) {
        var query: [String: String] = [:]
        var allQuery: [String: [String]] = [:]
        for item in url.query {
            query[item.name] = item.value
            allQuery[item.name, default: []].append(item.value)
        }
        return (query, allQuery)
    }

    /// A table's matches in the order to try them: those naming the fragment; the exact
    /// ones with those of the routes' own matchers, by priority then registration; the
    /// prefix matches.
    private static func ordered(
        _ table: RouteStore.Candidates, url: String, query: [String: String], allQuery: [String: [String]],
        extras: [String: any Sendable]
    ) -> [RouteTable.Match] {
        let matches = table.matches
        // The common case, a table of patterns and a URL without a fragment: no copy.
        if table.custom.isEmpty, matches.fragment.isEmpty, matches.prefix.isEmpty { return matches.exact }
        let custom = customMatches(table.custom, in: table.url, text: url, query: query, allQuery: allQuery, extras: extras)
        let exact = custom.isEmpty ? matches.exact : (matches.exact + custom).sorted { $0.route.precedes($1.route) }
        return matches.fragment + exact + matches.prefix
    }

    /// The matches of routes with matchers of their own, asked outside any lock.
    private static func customMatches(
        _ routes: [Route], in parsed: RouteURL, text: String, query: [String: String], allQuery: [String: [String]],
        extras: [String: any Sendable]
    ) -> [RouteTable.Match] {
        routes.compactMap { route in
            let request = RouteRequest(
                url: text, pattern: route.text, scheme: parsed.scheme, parameters: query, query: allQuery, wildcard: [],
                path: parsed.components, extras: extras, owner: route.owner)
            guard let parameters = route.matcher?.match(request) else { return nil }
            return RouteTable.Match(
                route: route, parameters: parameters.sorted { $0.key < $1.key }, wildcard: [], path: parsed.components)
        }
    }

    /// Whether some route matches `url`, without calling any handler (a matching handler
    /// may still decline; routes' own matchers are asked). A malformed URL answers `false`.
    public func canOpen(_ url: String) -> Bool {
        guard let parsed = try? RouteURL(url) else { return false }
        let (found, custom) = store.hasMatch(parsed, text: url)
        if found { return true }
        return custom.contains { read, routes in
            let (query, allQuery) = Self.query(of: read)
            return !Self.customMatches(routes, in: read, text: url, query: query, allQuery: allQuery, extras: [:]).isEmpty
        }
    }

    /// Sets (or, with `nil`, removes) the handler called with a URL no route handled
    /// (JLRoutes' `unmatchedURLHandler`): for URLs of `scheme`, or with `nil` for every
    /// URL whose scheme has none of its own. One per scheme and one global; the latest
    /// wins, and each goes away with the module that set it. Only one is called for a
    /// URL (JLRoutes may call both the scheme's and the global one).
    public func setUnmatchedHandler(scheme: String? = nil, _ handler: (@Sendable (String) async throws -> Void)?) {
        store.setUnmatched(handler, scheme: scheme, owner: owner)
    }

    /// Sets the options of the table of `scheme`, or with `nil` of the global table
    /// (JLRoutes' global switches, here one table's; see ``RouteOptions``). They stay
    /// when the table's routes go.
    public func setOptions(_ options: RouteOptions, scheme: String?) {
        store.setOptions(options, for: scheme)
    }

    /// The options of the table of `scheme`, or with `nil` of the global table.
    public func options(scheme: String?) -> RouteOptions {
        store.options(for: scheme)
    }

    /// Every registered pattern, in registration order.
    public var patterns: [String] { store.routes.map(\.text) }

    /// Every registered route with its table, priority, owner and whether calls from
    /// outside may reach it, in registration order (JLRoutes' `allRoutes`).
    public var definitions: [RouteDefinition] {
        store.routes.map { $0.definition(exported: $0.exported || hive.exportsByDescriptor($0)) }
    }
}
