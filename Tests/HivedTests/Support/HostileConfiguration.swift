/// Configuration files made to be as costly to check as the limits allow (finding 5 of
/// issue 9), each of `bytes`: the worst shapes found by measuring `check-config` on the
/// packaged binary. hived reads at most 1 MiB, nests at most 100 deep, expands aliases to
/// at most 100,000 nodes and holds at most 250,000 nodes in all; the shapes sit just
/// under those bounds, or run into them as late as they can.
enum HostileConfiguration {
    /// One hostile file: what it is, its text, and the exit status of `check-config`.
    struct Shape {
        let name: String
        let text: String
        let status: Int32
    }

    /// hived's bound on the nodes of a document (`YAMLReader.maximumNodes`).
    static let maximumNodes = 250_000

    /// Every shape, each of at most `bytes`.
    static func shapes(bytes: Int) -> [Shape] {
        let settings = "modules:\n  - name: m\n    type: probe\n    settings:\n"
        let room = maximumNodes - 100
        return [
            Shape(name: "anchor chain, then a list of a million bytes", text: anchorChain(bytes: bytes), status: 78),
            // `{a}`: a map, its key and a null value in four bytes (800,000 nodes in all).
            Shape(
                name: "1 MiB of one-key maps in a flow list",
                text: filled(settings + "      many: [", item: "{a}", closing: "]\n", bytes: bytes), status: 78),
            Shape(
                name: "one map of 100,000 distinct keys",
                text: padded(settings + "      many: {" + (0..<100_000).map { "k\(String($0, radix: 16)): 1" }.joined(separator: ", ") + "}\n", bytes: bytes),
                status: 78),
            Shape(
                name: "one-key maps up to the node bound",
                text: padded(settings + "      many: [" + repeatElement("{a: 1}", count: room / 3).joined(separator: ",") + "]\n", bytes: bytes),
                status: 78),
            Shape(
                name: "maps nested 95 deep, up to the node bound",
                text: padded(settings + "      many: [" + repeatElement(nested(95), count: room / 191).joined(separator: ",") + "]\n", bytes: bytes),
                status: 78),
            Shape(name: "modules up to 1 MiB", text: modules(bytes: bytes), status: 0),
        ]
    }

    /// One module whose settings hold a chain of anchors, each a map of two long keys that
    /// alias the previous anchor (13 levels: just under 100,000 expanded nodes, key paths
    /// growing at every level), then a flow list of one-letter items up to `bytes` (the
    /// most nodes a byte can make, refused at the node bound).
    /// `Benchmarks/Sources/daemon-bench/HostileConfiguration.swift` makes the same file for
    /// the benchmark.
    static func anchorChain(bytes: Int, keyLength: Int = 100) -> String {
        func key(_ level: Int, _ side: String) -> String {
            side + String(repeating: "k", count: keyLength) + "\(level)"
        }
        var text = "modules:\n  - name: m\n    type: probe\n    settings:\n"
        text += "      l0: &a0 {\(key(0, "a")): 1, \(key(0, "b")): 2}\n"
        for level in 1..<13 {
            text += "      l\(level): &a\(level) {\(key(level, "a")): *a\(level - 1), \(key(level, "b")): *a\(level - 1)}\n"
        }
        let prefix = "      many: ["
        let room = max(0, bytes - text.utf8.count - prefix.utf8.count - 2)
        return text + prefix + String(repeating: "a,", count: room / 2) + "a]\n"
    }

    /// `opening`, then as many `item`s as fit in `bytes`, then `closing`.
    static func filled(_ opening: String, item: String, closing: String, bytes: Int) -> String {
        let room = max(0, bytes - opening.utf8.count - closing.utf8.count)
        let count = max(1, (room + 1) / (item.utf8.count + 1))
        return opening + repeatElement(item, count: count).joined(separator: ",") + closing
    }

    /// `text`, then a setting whose value is one long string up to `bytes`: the bytes left
    /// cost libyaml a scan but add no node.
    static func padded(_ text: String, bytes: Int) -> String {
        let opening = "      pad: "
        let room = bytes - text.utf8.count - opening.utf8.count - 1
        guard room > 0 else { return text }
        return text + opening + String(repeating: "p", count: room) + "\n"
    }

    /// `{a: {a: … 1}}`, `depth` maps deep (2 × depth + 1 nodes).
    static func nested(_ depth: Int) -> String {
        String(repeating: "{a: ", count: depth) + "1" + String(repeating: "}", count: depth)
    }

    /// Valid modules (`echo`, which takes no settings) up to `bytes`: all of them built.
    static func modules(bytes: Int) -> String {
        var text = "modules:\n"
        var index = 0
        while true {
            let line = "  - {name: m\(index), type: echo}\n"
            guard text.utf8.count + line.utf8.count <= bytes else { return text }
            text += line
            index += 1
        }
    }
}
