import HiveKit
/// A YAML node together with its file and key path (`modules[2].priority`), so that
/// every error it makes names the file, the line and the key.
///
/// The key path is a chain of links to the parent's, turned into text only for an error:
/// walking a document (aliases expanded) costs no string per node.
struct ConfigNode {
    /// The last step of a key path.
    enum Step {
        case key(String)
        case index(Int)
    }

    /// One step of a key path and the path before it.
    final class PathLink {
        let parent: PathLink?
        let step: Step

        init(parent: PathLink?, step: Step) {
            self.parent = parent
            self.step = step
        }

        /// `modules[2].priority`.
        var text: String {
            var steps: [Step] = []
            var link: PathLink? = self
            while let current = link {
                steps.append(current.step)
                link = current.parent
            }
            var text = ""
            for step in steps.reversed() {
                switch step {
                case .key(let key): text += text.isEmpty ? key.abbreviated() : "." + key.abbreviated()
                case .index(let index): text += "[\(index)]"
                }
            }
            return text
        }
    }

    /// The node as ``YAMLReader`` read it.
    let node: YAMLNode
    /// The key path of the node; nil at the top.
    let path: PathLink?
    /// The file name used in locations.
    let file: String

    /// The top-level node of `file`.
    init(root node: YAMLNode, file: String) {
        self.init(node: node, path: nil, file: file)
    }

    private init(node: YAMLNode, path: PathLink?, file: String) {
        self.node = node
        self.path = path
        self.file = file
    }

    /// Where the node sits in the document, e.g. `log.level` or `modules[0].settings`.
    /// Built when asked (for errors), not for every node read.
    var keyPath: String { path?.text ?? "" }

    /// The 1-based line the node starts on.
    var line: Int { node.line }

    /// `file:line` of the node.
    var location: SourceLocation { SourceLocation(path: file, line: line) }

    /// The scalar's YAML type; `nil` for a list or a map.
    var type: ScalarType? {
        guard case .scalar(_, let type) = node.content else { return nil }
        return type
    }

    /// Whether the node is an explicit or implicit null (`~`, `null`, nothing at all).
    var isNull: Bool { node.isNull }

    /// A node below this one.
    func child(_ node: YAMLNode, key: String) -> ConfigNode {
        ConfigNode(node: node, path: PathLink(parent: path, step: .key(key)), file: file)
    }

    /// An element of this list.
    func element(_ node: YAMLNode, index: Int) -> ConfigNode {
        ConfigNode(node: node, path: PathLink(parent: path, step: .index(index)), file: file)
    }

    /// An error at this node whose message starts with the key path.
    func error(
        _ message: String, code: HiveError.Code = .invalidConfiguration, module: String? = nil
    ) -> HiveError {
        let text = keyPath.isEmpty ? message : "\(keyPath): \(message)"
        return HiveError(code, module: module, location: location, text)
    }

    /// How the node reads in an error: `'high'`, `a map`, `a list`, `nothing`.
    var found: String {
        switch node.content {
        case .scalar(let text, _): isNull ? "nothing" : "\(quoted: text)"
        case .mapping: "a map"
        case .sequence: "a list"
        }
    }

    // MARK: Scalars

    /// The text of a non-null scalar, whatever its YAML type.
    func text(expected: @autoclosure () -> String = "a string") throws(HiveError) -> String {
        guard case .scalar(let text, let type) = node.content, type != .null else {
            throw error("expected \(expected()), got \(found)")
        }
        return text
    }

    /// A non-empty string (a name, a type).
    func name() throws(HiveError) -> String {
        let value = try text(expected: "a name")
        guard !value.trimmingWhitespace().isEmpty else { throw error("must not be empty") }
        return value
    }

    /// An integer (`100`, `-5`, `0x10`).
    func int() throws(HiveError) -> Int {
        guard case .scalar(let text, .int) = node.content, let value = PlainScalar.int(text) else {
            throw error("expected an integer, got \(found)")
        }
        return value
    }

    /// A boolean (`true`/`false`, also YAML 1.1's `yes`/`no`/`on`/`off`).
    func bool() throws(HiveError) -> Bool {
        guard case .scalar(let text, .bool) = node.content, let value = PlainScalar.bool(text) else {
            throw error("expected true or false, got \(found)")
        }
        return value
    }

    /// A duration between ``BudgetConfiguration/minimum`` (1 ms) and
    /// `Duration.parsingLimit` (100 years), a decimal number written with its unit: `250ms`,
    /// `5s`, `2m`, `1h` (a bare number is refused: seconds or milliseconds would be a guess).
    func duration() throws(HiveError) -> Duration {
        let expected = "a duration such as 250ms, 5s or 2m"
        guard case .scalar(let text, let type) = node.content, [.string, .int, .float].contains(type) else {
            throw error("expected \(expected), got \(found)")
        }
        switch Duration.parse(text) {
        case .malformed: throw error("expected \(expected), got \(found)")
        case .beyondLimit: throw error("must be at most 100 years, got \(found)")
        case .valid(let value):
            guard value >= BudgetConfiguration.minimum else { throw error("must be at least 1ms, got \(found)") }
            return value
        }
    }

    /// One of `choices`, by name, or of `aliases` (accepted, but not listed in errors).
    func choice<Value>(
        _ choices: [(name: String, value: Value)], aliases: [(name: String, value: Value)] = []
    ) throws(HiveError) -> Value {
        func names() -> String { choices.map(\.name).joined(separator: ", ") }
        let value = try text(expected: "one of \(names())")
        guard let match = (choices + aliases).first(where: { $0.name == value }) else {
            throw error("expected one of \(names()); got \(found)")
        }
        return match.value
    }

    // MARK: Collections

    /// The elements of a list; a null counts as an empty list.
    func list(of what: String) throws(HiveError) -> [ConfigNode] {
        if isNull { return [] }
        guard case .sequence(let sequence) = node.content else {
            throw error("expected a list of \(what), got \(found)")
        }
        return sequence.enumerated().map { element($0.element, index: $0.offset) }
    }

    /// The entries of a map whose keys must be among `keys`; a null counts as an empty map.
    ///
    /// - Throws: at the key's line for a key not in `keys`, or for a non-scalar or merge key.
    func map(keys: [String], of what: String) throws(HiveError) -> ConfigMap {
        let entries = try entries(of: what)
        for entry in entries where !keys.contains(entry.name) {
            throw entry.key.error("unknown key; expected \(keys.joined(separator: ", "))")
        }
        return ConfigMap(node: self, entries: entries)
    }

    /// The entries of a map with any scalar keys; a null counts as an empty map.
    func entries(of what: String) throws(HiveError) -> [ConfigEntry] {
        let pairs = try pairs(of: what)
        var result: [ConfigEntry] = []
        result.reserveCapacity(pairs.count / 2)
        for index in stride(from: 0, to: pairs.count - 1, by: 2) {
            let name = try keyName(pairs[index])
            let link = PathLink(parent: path, step: .key(name))
            let key = ConfigNode(node: pairs[index], path: link, file: file)
            let value = ConfigNode(node: pairs[index + 1], path: link, file: file)
            result.append(ConfigEntry(name: name, key: key, value: value))
        }
        return result
    }

    /// The keys and values of a map, alternating; a null counts as an empty map. For a
    /// walk that makes no ``ConfigEntry`` (settings): each key's name is ``keyName(_:)``.
    func pairs(of what: String) throws(HiveError) -> [YAMLNode] {
        if isNull { return [] }
        guard case .mapping(let pairs) = node.content else {
            throw error("expected \(what), got \(found)")
        }
        return pairs
    }

    /// The name of `key`, a key of this map.
    ///
    /// - Throws: for a key that is not a scalar, or is a merge key.
    func keyName(_ key: YAMLNode) throws(HiveError) -> String {
        guard case .scalar(let name, let type) = key.content, type != .merge else {
            let bare = ConfigNode(node: key, path: path, file: file)
            guard case .scalar = key.content else { throw bare.error("keys must be plain names, got \(bare.found)") }
            throw bare.error("merge keys (<<) are not supported; write the keys out")
        }
        return name
    }
}

/// One `key: value` pair of a YAML map.
struct ConfigEntry {
    /// The key's text.
    let name: String
    /// The key node (for errors about the key itself).
    let key: ConfigNode
    /// The value node.
    let value: ConfigNode
}

/// A YAML map whose keys were checked against the allowed ones.
struct ConfigMap {
    /// The map itself.
    let node: ConfigNode
    /// Its entries in file order.
    let entries: [ConfigEntry]

    /// The value for `key`; `nil` when absent or null (a null means "use the default").
    subscript(key: String) -> ConfigNode? {
        guard let value = entries.first(where: { $0.name == key })?.value, !value.isNull else { return nil }
        return value
    }

    /// The value for a required `key`.
    ///
    /// - Throws: at the key's line when it is null, at the map's line when it is absent.
    func required(_ key: String) throws(HiveError) -> ConfigNode {
        if let value = self[key] { return value }
        if let entry = entries.first(where: { $0.name == key }) {
            throw entry.value.error("is required and must not be empty")
        }
        throw node.child(node.node, key: key).error("is required")
    }
}
