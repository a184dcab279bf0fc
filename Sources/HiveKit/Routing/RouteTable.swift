/// The routes of one scheme (or the global table) as a trie of path segments, so a
/// lookup costs one dictionary probe per URL component rather than one comparison per
/// route. Routes with a matcher of their own are kept aside, for the router to ask
/// outside the lock. Only touched under the ``RouteStore`` lock.
final class RouteTable {
    /// One compiled variant of a route at the node where it ends.
    struct Variant {
        let route: Route
        /// The names of the variant's `:parameters`, in path order.
        let names: [String]
        let length: Int
    }

    /// A match: the route, the values its parameters took, what `*` (or, in a prefix
    /// match, the components past the pattern) matched, and the path it matched.
    struct Match: Sendable {
        let route: Route
        let parameters: [(String, String)]
        let wildcard: ArraySlice<String>
        let path: [String]
    }

    /// Every match of a URL in the table, in the order to try them within each group.
    struct Matches {
        /// Patterns that name the fragment, matched against the URL's fragment path.
        var fragment: [Match] = []
        /// Exact matches of the URL's path.
        var exact: [Match] = []
        /// Patterns shorter than the path (``RouteOptions/matchesPrefixes``), longest first.
        var prefix: [Match] = []

        var isEmpty: Bool { fragment.isEmpty && exact.isEmpty && prefix.isEmpty }
    }

    private final class Node {
        var literals: [String: Node] = [:]
        var parameter: Node?
        /// Parameters followed by a literal suffix (`:id.html`, `:object#`): rare.
        var suffixed: [(suffix: String, node: Node)] = []
        var ends: [Variant] = []
        var wildcards: [Variant] = []
    }

    /// One walk of the trie over a URL's components.
    private struct Walk {
        typealias Found = (variant: Variant, values: [String], rest: ArraySlice<String>)

        let components: [String]
        /// The index of the component holding the fragment's `#`: only a segment that
        /// names the fragment matches it, and no `*` or prefix match begins at or before it.
        let join: Int?
        let prefixes: Bool
        let stopAtFirst: Bool
        var values: [String] = []
        var found: [Found] = []
        var prefixFound: [Found] = []

        init(_ components: [String], join: Int? = nil, prefixes: Bool, stopAtFirst: Bool = false) {
            self.components = components
            self.join = join
            self.prefixes = prefixes
            self.stopAtFirst = stopAtFirst
        }

        var isDone: Bool { stopAtFirst && !(found.isEmpty && prefixFound.isEmpty) }

        /// Whether a `*` or a prefix match may take the components from `index` on.
        func mayTakeRest(from index: Int) -> Bool { join.map { index > $0 } ?? true }
    }

    private var root = Node()
    private(set) var routes: [Route] = []
    /// The routes with a matcher of their own, in registration order.
    private(set) var custom: [Route] = []

    var isEmpty: Bool { routes.isEmpty }

    func insert(_ route: Route) {
        routes.append(route)
        guard route.matcher == nil else {
            custom.append(route)
            return
        }
        for segments in route.pattern.variants {
            var node = root
            var names: [String] = []
            for segment in segments {
                switch segment {
                case .literal(let text):
                    if let child = node.literals[text] {
                        node = child
                    } else {
                        let child = Node()
                        node.literals[text] = child
                        node = child
                    }
                case .parameter(let name, let suffix) where suffix.isEmpty:
                    names.append(name)
                    let child = node.parameter ?? Node()
                    node.parameter = child
                    node = child
                case .parameter(let name, let suffix):
                    names.append(name)
                    if let index = node.suffixed.firstIndex(where: { $0.suffix == suffix }) {
                        node = node.suffixed[index].node
                    } else {
                        let child = Node()
                        node.suffixed.append((suffix, child))
                        node = child
                    }
                case .wildcard:
                    break
                }
            }
            let variant = Variant(route: route, names: names, length: segments.count)
            if segments.last == .wildcard { node.wildcards.append(variant) } else { node.ends.append(variant) }
        }
    }

    /// Rebuilds the trie without the routes `drop` selects; `true` if any was dropped.
    func removeAll(where drop: (Route) -> Bool) -> Bool {
        let kept = routes.filter { !drop($0) }
        guard kept.count != routes.count else { return false }
        root = Node()
        routes = []
        custom = []
        for route in kept { insert(route) }
        return true
    }

    /// Every compiled route matching `url`: those naming the fragment against its
    /// fragment path, then those matching its path, each group in the order to try them
    /// (priority, then registration; prefix matches longest first); a route matching
    /// through several variants or both ways appears once, with its first match.
    func matches(_ url: RouteURL, prefixes: Bool) -> Matches {
        var result = Matches()
        var seen = Set<ObjectIdentifier>()
        if let fragment = url.fragmentPath {
            var walk = Walk(fragment.components, join: fragment.join, prefixes: false)
            collect(root, 0, &walk)
            result.fragment = Self.ordered(walk.found, path: fragment.components, seen: &seen, longestFirst: false)
        }
        var walk = Walk(url.components, prefixes: prefixes)
        collect(root, 0, &walk)
        result.exact = Self.ordered(walk.found, path: url.components, seen: &seen, longestFirst: false)
        result.prefix = Self.ordered(walk.prefixFound, path: url.components, seen: &seen, longestFirst: true)
        return result
    }

    /// Whether any compiled route matches `url`.
    func hasMatch(_ url: RouteURL, prefixes: Bool) -> Bool {
        if let fragment = url.fragmentPath {
            var walk = Walk(fragment.components, join: fragment.join, prefixes: false, stopAtFirst: true)
            collect(root, 0, &walk)
            if walk.isDone { return true }
        }
        var walk = Walk(url.components, prefixes: prefixes, stopAtFirst: true)
        collect(root, 0, &walk)
        return walk.isDone
    }

    private static func ordered(
        _ found: [Walk.Found], path: [String], seen: inout Set<ObjectIdentifier>, longestFirst: Bool
    ) -> [Match] {
        guard !found.isEmpty else { return [] }
        let sorted = found.sorted { lhs, rhs in
            if longestFirst, lhs.variant.length != rhs.variant.length { return lhs.variant.length > rhs.variant.length }
            if lhs.variant.route !== rhs.variant.route { return lhs.variant.route.precedes(rhs.variant.route) }
            return lhs.variant.length > rhs.variant.length
        }
        var result: [Match] = []
        result.reserveCapacity(sorted.count)
        for (variant, values, rest) in sorted where seen.insert(ObjectIdentifier(variant.route)).inserted {
            result.append(
                Match(route: variant.route, parameters: Array(zip(variant.names, values)), wildcard: rest, path: path))
        }
        return result
    }

    private func collect(_ node: Node, _ index: Int, _ walk: inout Walk) {
        let components = walk.components
        if walk.mayTakeRest(from: index) {
            for variant in node.wildcards {
                walk.found.append((variant, walk.values, components[index...]))
                if walk.stopAtFirst { return }
            }
        }
        guard index < components.count else {
            for variant in node.ends { walk.found.append((variant, walk.values, [])) }
            return
        }
        if walk.prefixes, walk.mayTakeRest(from: index) {
            for variant in node.ends { walk.prefixFound.append((variant, walk.values, components[index...])) }
            if walk.isDone { return }
        }
        let component = components[index]
        if let child = node.literals[component] {
            collect(child, index + 1, &walk)
            if walk.isDone { return }
        }
        let isJoin = walk.join == index
        if !isJoin, let child = node.parameter {
            walk.values.append(component)
            collect(child, index + 1, &walk)
            walk.values.removeLast()
            if walk.isDone { return }
        }
        for (suffix, child) in node.suffixed where !isJoin || suffix.contains("#") {
            guard component.count > suffix.count, component.hasSuffix(suffix) else { continue }
            walk.values.append(String(component.dropLast(suffix.count)))
            collect(child, index + 1, &walk)
            walk.values.removeLast()
            if walk.isDone { return }
        }
    }
}
