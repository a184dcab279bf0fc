/// The routes of one scheme (or the global table) as a trie of path segments, so a
/// lookup costs one dictionary probe per URL component rather than one comparison per
/// route. Only touched under the ``RouteStore`` lock.
final class RouteTable {
    /// One compiled variant of a route at the node where it ends.
    struct Variant {
        let route: Route
        /// The names of the variant's `:parameters`, in path order.
        let names: [String]
        let length: Int
    }

    /// A match: the route, the values its parameters took, what `*` matched.
    struct Match: Sendable {
        let route: Route
        let parameters: [(String, String)]
        let wildcard: ArraySlice<String>
    }

    private final class Node {
        var literals: [String: Node] = [:]
        var parameter: Node?
        var ends: [Variant] = []
        var wildcards: [Variant] = []
    }

    private var root = Node()
    private(set) var routes: [Route] = []

    var isEmpty: Bool { routes.isEmpty }

    func insert(_ route: Route) {
        routes.append(route)
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
                case .parameter(let name):
                    names.append(name)
                    let child = node.parameter ?? Node()
                    node.parameter = child
                    node = child
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
        for route in kept { insert(route) }
        return true
    }

    /// Every route matching `components`, in the order to try them (priority, then
    /// registration); a route matching through several variants appears once, with its
    /// longest matching variant.
    func matches(_ components: [String]) -> [Match] {
        var found: [(Variant, [String], ArraySlice<String>)] = []
        var values: [String] = []
        collect(root, components, 0, &values, &found)
        guard !found.isEmpty else { return [] }
        found.sort { lhs, rhs in
            if lhs.0.route !== rhs.0.route { return lhs.0.route.precedes(rhs.0.route) }
            return lhs.0.length > rhs.0.length
        }
        var result: [Match] = []
        result.reserveCapacity(found.count)
        for (variant, values, wildcard) in found where result.last?.route !== variant.route {
            result.append(Match(route: variant.route, parameters: Array(zip(variant.names, values)), wildcard: wildcard))
        }
        return result
    }

    /// Whether any route matches `components`.
    func hasMatch(_ components: [String]) -> Bool {
        var values: [String] = []
        var found: [(Variant, [String], ArraySlice<String>)] = []
        collect(root, components, 0, &values, &found, stopAtFirst: true)
        return !found.isEmpty
    }

    private func collect(
        _ node: Node, _ components: [String], _ index: Int, _ values: inout [String],
        _ found: inout [(Variant, [String], ArraySlice<String>)], stopAtFirst: Bool = false
    ) {
        for variant in node.wildcards {
            found.append((variant, values, components[index...]))
            if stopAtFirst { return }
        }
        guard index < components.count else {
            for variant in node.ends { found.append((variant, values, [])) }
            return
        }
        if let child = node.literals[components[index]] {
            collect(child, components, index + 1, &values, &found, stopAtFirst: stopAtFirst)
            if stopAtFirst, !found.isEmpty { return }
        }
        if let child = node.parameter {
            values.append(components[index])
            collect(child, components, index + 1, &values, &found, stopAtFirst: stopAtFirst)
            values.removeLast()
        }
    }
}
