import Logging
import Synchronization

/// The hive's URL routes (JLRoutes' route tables): one table per scheme plus the global
/// one, each with its ``RouteOptions``, and the unmatched-URL handlers (global and per
/// scheme).
/// Reached through the scoped ``Router`` views of ``Hive/router`` and ``ModuleContext/router``.
///
/// Matching runs under the lock (a few dictionary probes); handlers and routes' own
/// matchers are always called after it is released, so a handler may open URLs or
/// register routes itself.
final class RouteStore: Sendable {
    typealias UnmatchedHandler = @Sendable (String) async throws -> Void

    /// What one table offers a URL: its matches, the routes whose own matchers must be
    /// asked, the URL as the table reads it, and the table's logger.
    struct Candidates: Sendable {
        let url: RouteURL
        let matches: RouteTable.Matches
        let custom: [Route]
        let logger: Logger?

        var isEmpty: Bool { matches.isEmpty && custom.isEmpty }
    }

    private struct State {
        var tables: [String: RouteTable] = [:]
        var global = RouteTable()
        /// Each table's options, by scheme; the `nil` key is the global table's. A table
        /// without an entry has the defaults.
        var options: [String?: RouteOptions] = [:]
        /// Unmatched-URL handlers by scheme; the `nil` key is the global one.
        var unmatched: [String?: (owner: String?, handler: UnmatchedHandler)] = [:]
        var nextSequence = 0
        /// The hive stopped: nothing is routed or registered any more.
        var isClosed = false

        /// The tables `url` is tried against, in order: its scheme's (if any), then the
        /// global one unless the scheme opted out, each with the scheme it goes by.
        func tables(for scheme: String?) -> [(scheme: String?, table: RouteTable?)] {
            guard let scheme else { return [(nil, global)] }
            if options[scheme]?.fallsBackToGlobal == false { return [(scheme, tables[scheme])] }
            return [(scheme, tables[scheme]), (nil, global)]
        }

        /// `url` as the table of `scheme` reads it: parsed again when its options read URLs
        /// differently from the defaults (parsing can fail only in ways the defaults share).
        func url(_ url: RouteURL, text: String, for scheme: String?) -> RouteURL {
            guard let parsing = options[scheme]?.parsing, parsing != .standard else { return url }
            return (try? RouteURL(text, parsing: parsing)) ?? url
        }
    }

    private let state = Mutex(State())

    func add(
        _ text: String, matcher: (any RouteMatcher)?, priority: Int, owner: String?, exported: Bool,
        body: Route.Body
    ) throws(HiveError) {
        // Compiled under the options of the pattern's table: read them first (the scheme
        // needs no options to be read).
        let split = try RouteURL.splitScheme(Substring(text), in: text)
        let options = state.withLock { $0.options[split.0] } ?? RouteOptions()
        let matcher = matcher ?? options.matcher?(text)
        let pattern = try RoutePattern(text, literalSuffixes: options.literalSuffixes, split: split)
        try state.withLock { state throws(HiveError) in
            if state.isClosed { throw HiveError.hiveStopped("cannot register route '\(text)'") }
            let route = Route(
                text: text, pattern: pattern, matcher: matcher, priority: priority, sequence: state.nextSequence,
                owner: owner, exported: exported, body: body)
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

    /// What each table `url` is tried against offers it, in order: the scheme's table,
    /// then (unless the scheme opted out) the global table; plus the unmatched handler:
    /// the scheme's, else the global one. `nil` once the hive has stopped.
    func candidates(for url: RouteURL, text: String) -> (tables: [Candidates], unmatched: UnmatchedHandler?)? {
        state.withLock { state in
            if state.isClosed { return nil }
            let unmatched = state.unmatched.isEmpty ? nil : (state.unmatched[url.scheme] ?? state.unmatched[nil])?.handler
            var result: [Candidates] = []
            for (scheme, table) in state.tables(for: url.scheme) {
                guard let table, !table.isEmpty else { continue }
                let options = state.options[scheme]
                let read = state.url(url, text: text, for: scheme)
                let candidates = Candidates(
                    url: read, matches: table.matches(read, prefixes: options?.matchesPrefixes ?? false),
                    custom: table.custom, logger: options?.logger)
                if !candidates.isEmpty { result.append(candidates) }
            }
            return (result, unmatched)
        }
    }

    /// Whether a compiled route matches `url`; if none does, the routes with matchers of
    /// their own to ask, with the URL as their tables read it.
    func hasMatch(_ url: RouteURL, text: String) -> (found: Bool, custom: [(RouteURL, [Route])]) {
        state.withLock { state in
            if state.isClosed { return (false, []) }
            var custom: [(RouteURL, [Route])] = []
            for (scheme, table) in state.tables(for: url.scheme) {
                guard let table, !table.isEmpty else { continue }
                let read = state.url(url, text: text, for: scheme)
                if table.hasMatch(read, prefixes: state.options[scheme]?.matchesPrefixes ?? false) { return (true, []) }
                if !table.custom.isEmpty { custom.append((read, table.custom)) }
            }
            return (false, custom)
        }
    }

    /// The options of `scheme`'s table (`nil`: the global table's).
    func options(for scheme: String?) -> RouteOptions {
        state.withLock { $0.options[scheme?.lowercased()] } ?? RouteOptions()
    }

    func setOptions(_ options: RouteOptions, for scheme: String?) {
        state.withLock { $0.options[scheme?.lowercased()] = options }
    }

    /// Sets or removes the unmatched-URL handler of `scheme` (`nil`: the global one).
    func setUnmatched(_ handler: UnmatchedHandler?, scheme: String?, owner: String?) {
        state.withLock { $0.unmatched[scheme?.lowercased()] = handler.map { (owner, $0) } }
    }

    /// Removes the routes `owner` registered with exactly `text`; `true` if any.
    func remove(_ text: String, owner: String?) -> Bool {
        state.withLock { Self.removeRoutes(&$0) { $0.text == text && $0.owner == owner } } > 0
    }

    /// Removes the routes `owner` registered in the table of `scheme` (`nil`: the
    /// global table); how many.
    func removeAll(owner: String?, scheme: String?) -> Int {
        let scheme = scheme?.lowercased()
        return state.withLock { Self.removeRoutes(&$0) { $0.owner == owner && $0.pattern.scheme == scheme } }
    }

    /// Removes every route `owner` registered; how many.
    func removeAll(owner: String?) -> Int {
        state.withLock { Self.removeRoutes(&$0) { $0.owner == owner } }
    }

    /// Removes every route and unmatched handler the `owners` registered.
    func removeAll(ownedBy owners: Set<String>) {
        state.withLock { state in
            _ = Self.removeRoutes(&state) { route in route.owner.map(owners.contains) ?? false }
            state.unmatched = state.unmatched.filter { !($0.value.owner.map(owners.contains) ?? false) }
        }
    }

    /// Removes the routes `drop` selects from every table; how many.
    private static func removeRoutes(_ state: inout State, where drop: (Route) -> Bool) -> Int {
        let count = { (state: State) in state.global.routes.count + state.tables.values.reduce(0) { $0 + $1.routes.count } }
        let before = count(state)
        _ = state.global.removeAll(where: drop)
        for table in state.tables.values { _ = table.removeAll(where: drop) }
        state.tables = state.tables.filter { !$0.value.isEmpty }
        return before - count(state)
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
