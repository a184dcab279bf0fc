import Synchronization

/// The hive's URL routes (JLRoutes' route tables): one table per scheme plus the global
/// one, the unmatched-URL handlers (global and per scheme), and which schemes fall back
/// to the global table.
/// Reached through the scoped ``Router`` views of ``Hive/router`` and ``ModuleContext/router``.
///
/// Matching runs under the lock (a few dictionary probes); handlers are always called
/// after it is released, so a handler may open URLs or register routes itself.
final class RouteStore: Sendable {
    typealias UnmatchedHandler = @Sendable (String) async throws -> Void

    private struct State {
        var tables: [String: RouteTable] = [:]
        var global = RouteTable()
        /// Schemes that do not fall back to the global table.
        var noFallback: Set<String> = []
        /// Unmatched-URL handlers by scheme; the `nil` key is the global one.
        var unmatched: [String?: (owner: String?, handler: UnmatchedHandler)] = [:]
        var nextSequence = 0
        /// The hive stopped: nothing is routed or registered any more.
        var isClosed = false
    }

    private let state = Mutex(State())

    func add(_ text: String, priority: Int, owner: String?, body: Route.Body) throws(HiveError) {
        let pattern = try RoutePattern(text)
        try state.withLock { state throws(HiveError) in
            if state.isClosed { throw HiveError.hiveStopped("cannot register route '\(text)'") }
            let route = Route(
                text: text, pattern: pattern, priority: priority, sequence: state.nextSequence,
                owner: owner, body: body)
            state.nextSequence += 1
            if let scheme = pattern.scheme {
                let table = state.tables[scheme] ?? RouteTable()
                state.tables[scheme] = table
                table.insert(route)
            } else {
                state.global.insert(route)
            }
        }
    }

    /// The routes to try for `url`, in order: the scheme's table, then (unless the scheme
    /// opted out) the global table; plus the unmatched handler: the scheme's, else the
    /// global one. `nil` once the hive has stopped.
    func candidates(for url: RouteURL) -> (matches: [RouteTable.Match], unmatched: UnmatchedHandler?)? {
        state.withLock { state in
            if state.isClosed { return nil }
            let unmatched = state.unmatched.isEmpty ? nil : (state.unmatched[url.scheme] ?? state.unmatched[nil])?.handler
            var matches: [RouteTable.Match] = []
            if let scheme = url.scheme {
                if let table = state.tables[scheme] { matches = table.matches(url.components) }
                if state.noFallback.contains(scheme) { return (matches, unmatched) }
            }
            matches += state.global.matches(url.components)
            return (matches, unmatched)
        }
    }

    /// Whether any route matches `url`.
    func hasMatch(_ url: RouteURL) -> Bool {
        state.withLock { state in
            if state.isClosed { return false }
            if let scheme = url.scheme {
                if state.tables[scheme]?.hasMatch(url.components) == true { return true }
                if state.noFallback.contains(scheme) { return false }
            }
            return state.global.hasMatch(url.components)
        }
    }

    func setFallback(_ fallsBack: Bool, scheme: String) {
        state.withLock { state in
            if fallsBack { state.noFallback.remove(scheme.lowercased()) } else { state.noFallback.insert(scheme.lowercased()) }
        }
    }

    /// Sets or removes the unmatched-URL handler of `scheme` (`nil`: the global one).
    func setUnmatched(_ handler: UnmatchedHandler?, scheme: String?, owner: String?) {
        state.withLock { $0.unmatched[scheme?.lowercased()] = handler.map { (owner, $0) } }
    }

    /// Removes the routes registered with exactly `text` by `owner`; `true` if any.
    func remove(_ text: String, owner: String?) -> Bool {
        state.withLock { state in
            let drop = { (route: Route) in route.text == text && route.owner == owner }
            var removed = state.global.removeAll(where: drop)
            for table in state.tables.values where table.removeAll(where: drop) { removed = true }
            state.tables = state.tables.filter { !$0.value.isEmpty }
            return removed
        }
    }

    /// Removes every route and unmatched handler the `owners` registered.
    func removeAll(ownedBy owners: Set<String>) {
        state.withLock { state in
            let drop = { (route: Route) in route.owner.map(owners.contains) ?? false }
            _ = state.global.removeAll(where: drop)
            for table in state.tables.values { _ = table.removeAll(where: drop) }
            state.tables = state.tables.filter { !$0.value.isEmpty }
            state.unmatched = state.unmatched.filter { !($0.value.owner.map(owners.contains) ?? false) }
        }
    }

    /// Closes the router for good once every module was torn down; the routes stay for
    /// the profiler.
    func close() {
        state.withLock { $0.isClosed = true }
    }

    /// Every route, in registration order.
    var routes: [Route] {
        state.withLock { state in
            (state.global.routes + state.tables.values.flatMap(\.routes)).sorted { $0.sequence < $1.sequence }
        }
    }
}
