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
/// falls back to unless told otherwise. The host is the first path component, compared
/// without case like the scheme; the rest of the path is case-sensitive.
///
/// For a URL the router tries, in order, the matching routes of its scheme's table, then
/// those of the global table, each table by priority (higher first) and then
/// registration order, until a handler returns `true`; if none does, the unmatched-URL
/// handler is called. Handlers run on the caller's task with no lock held and without
/// the hive's event gate, so they may open URLs or perform actions, even from inside an
/// event hook. Each call is timed in the owner module's ``HiveProfile/Module/calls``.
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
    /// - Throws: ``HiveError`` `.invalidRoute` for a malformed pattern.
    public func register(_ pattern: String, priority: Int = 0, handler: @escaping Handler) throws(HiveError) {
        do {
            try store.add(pattern, priority: priority, owner: owner, handler: handler)
        } catch {
            throw HiveError(error.code, module: owner, error.message)
        }
    }

    /// Removes this owner's routes registered with exactly `pattern`.
    ///
    /// - Returns: `false` when there were none.
    @discardableResult
    public func unregister(_ pattern: String) -> Bool {
        store.remove(pattern, owner: owner)
    }

    /// Routes `url` to the first matching handler that accepts it.
    ///
    /// - Returns: `true` when a handler returned `true`; `false` when none matched or all
    ///   declined (the unmatched-URL handler, if any, was called).
    /// - Throws: ``HiveError`` `.invalidRoute` for a malformed URL (nothing is called),
    ///   `.refusedEvent` once the hive has stopped, or the error of a handler that threw (wrapped as `.handlerFailed` naming its
    ///   module unless it is a ``HiveError``); later matches are not tried.
    @discardableResult
    public func open(_ url: String) async throws(HiveError) -> Bool {
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
                    url: url, pattern: match.route.text, scheme: parsed.scheme,
                    parameters: parameters, query: allQuery, wildcard: Array(match.wildcard))
                if try await match.route.call(request) { return true }
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
        return false
    }

    /// Whether some route matches `url`, without calling anything (a matching handler
    /// may still decline). A malformed URL answers `false`.
    public func canOpen(_ url: String) -> Bool {
        guard let parsed = try? RouteURL(url) else { return false }
        return store.hasMatch(parsed)
    }

    /// Sets (or, with `nil`, removes) the handler called with a URL no route handled
    /// (JLRoutes' `unmatchedURLHandler`). There is one per hive; the latest wins, and
    /// it goes away with the module that set it.
    public func setUnmatchedHandler(_ handler: (@Sendable (String) async throws -> Void)?) {
        store.setUnmatched(handler, owner: owner)
    }

    /// Whether URLs of `scheme` that no route of that scheme handled are tried against
    /// the global table (JLRoutes' `shouldFallbackToGlobalRoutes`); `true` by default.
    public func setFallsBackToGlobal(_ fallsBack: Bool, scheme: String) {
        store.setFallback(fallsBack, scheme: scheme)
    }

    /// Every registered pattern, in registration order.
    public var patterns: [String] { store.routes.map(\.text) }
}
