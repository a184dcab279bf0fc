import HiveKit
import CYAML

/// Reads YAML text into a ``YAMLNode`` tree with libyaml, turning its errors into
/// ``/HiveKit/HiveError``s at `file:line`.
///
/// One document only, of at most ``ConfigurationFile/maximumSize`` bytes and
/// ``maximumNodes`` nodes. Aliases are resolved, and what they expand to is bounded in
/// nodes and in bytes, so a "billion laughs" file is an error rather than a hang; so is
/// the depth of nesting. A key that appears twice in one
/// map is an error at its second line. Tags other than the core schema's
/// (`!!str`, `!!int`, `!!bool`, `!!float`, `!!null`, `!!seq`, `!!map`) are errors.
enum YAMLReader {
    /// The most nodes a document may expand to through aliases.
    static let maximumExpansion = 100_000
    /// The most bytes of scalars aliases may add to a document (4 MiB).
    static let maximumExpansionBytes = 4 << 20
    /// The deepest nesting of lists and maps accepted.
    static let maximumDepth = 100
    /// The most nodes (keys, values, lists and maps, aliases counted in full) a document
    /// may hold. A configuration holds hundreds, a file of 30,000 modules 150,000; 1 MiB
    /// of `[{a},{a},…]` would hold 800,000, each map costing a dictionary of settings:
    /// refused once past the bound, such a file is checked in a fraction of a second and
    /// of 100 MiB.
    static let maximumNodes = 250_000

    /// The root node of `text`, or `nil` when it holds no document.
    static func read(_ text: String, file: String) throws(HiveError) -> YAMLNode? {
        guard text.utf8.count <= ConfigurationFile.maximumSize else {
            throw HiveError(
                .invalidConfiguration, location: SourceLocation(path: file, line: 1),
                "the configuration is larger than \(ConfigurationFile.maximumSize >> 20) MiB")
        }
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(HiveError) in
                var composer = Composer(file: file, bytes: bytes)
                return try composer.compose()
            }
        }
        return try result.get()
    }
}

/// Builds nodes from libyaml's parser events.
///
/// The children of every open collection wait in one array, ``pending``; a collection's
/// closing takes its own off the end, into an array of their exact size: one allocation
/// per collection, none per node.
private struct Composer {
    /// A sequence or map whose end event has not come yet.
    struct Frame {
        let isMapping: Bool
        let line: Int
        let anchor: String?
        /// Where its children start in ``pending``.
        let start: Int
    }

    let file: String
    let bytes: UnsafeBufferPointer<UInt8>
    var stack: [Frame] = []
    /// The finished children of the open collections, innermost last.
    var pending: [YAMLNode] = []
    var anchors: [String: YAMLNode] = [:]
    var root: YAMLNode?
    var documents = 0
    /// Nodes added through aliases so far.
    var expanded = 0
    /// Scalar bytes added through aliases so far.
    var expandedBytes = 0
    /// Nodes so far, aliases counted in full.
    var nodes = 0

    mutating func compose() throws(HiveError) -> YAMLNode? {
        guard !bytes.isEmpty else { return nil }
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else { throw error(line: 1, "invalid YAML: out of memory") }
        defer { yaml_parser_delete(parser) }
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(parser, &event) == 1 else { throw parseError(parser.pointee) }
            defer { yaml_event_delete(&event) }
            if try take(event) { return root }
        }
    }

    /// Takes one event; `true` at the end of the stream.
    private mutating func take(_ event: yaml_event_t) throws(HiveError) -> Bool {
        let line = Int(event.start_mark.line) + 1
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return true
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            guard documents == 1 else {
                throw error(line: line, "invalid YAML: expected a single document in the stream, but found another document")
            }
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            guard let node = anchors[name] else { throw error(line: line, "invalid YAML: found undefined alias \(quoted: name)") }
            expanded += node.size
            expandedBytes += node.bytes
            try count(node.size, line: line)
            guard expanded <= YAMLReader.maximumExpansion else {
                throw error(line: line, "invalid YAML: aliases expand to more than \(YAMLReader.maximumExpansion) nodes")
            }
            guard expandedBytes <= YAMLReader.maximumExpansionBytes else {
                throw error(
                    line: line, "invalid YAML: aliases expand to more than \(YAMLReader.maximumExpansionBytes >> 20) MiB")
            }
            add(node, anchor: nil)
        case YAML_SCALAR_EVENT:
            try count(1, line: line)
            let scalar = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let type: ScalarType
            if let tag = Self.string(scalar.tag) {
                guard let tagged = ScalarType(tag: tag) else { throw unsupported(tag, line: line) }
                type = tagged
            } else {
                type = scalar.style == YAML_PLAIN_SCALAR_STYLE ? PlainScalar.type(of: text) : .string
            }
            add(YAMLNode(content: .scalar(text, type), line: line, size: 1, bytes: scalar.length), anchor: Self.string(scalar.anchor))
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            let (tag, anchor) = isMapping
                ? (event.data.mapping_start.tag, event.data.mapping_start.anchor)
                : (event.data.sequence_start.tag, event.data.sequence_start.anchor)
            try check(Self.string(tag), allowing: isMapping ? "tag:yaml.org,2002:map" : "tag:yaml.org,2002:seq", line: line)
            try checkDepth(line: line)
            try count(1, line: line)
            stack.append(Frame(isMapping: isMapping, line: line, anchor: Self.string(anchor), start: pending.count))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { break }
            add(try node(closing: frame), anchor: frame.anchor)
        default:
            break
        }
        return false
    }

    /// Adds a finished node to the open collection, or makes it the root.
    private mutating func add(_ node: YAMLNode, anchor: String?) {
        if let anchor { anchors[anchor] = node }
        if stack.isEmpty {
            root = node
        } else {
            pending.append(node)
        }
    }

    /// The sequence or map `frame` collected, taken off ``pending``; a map's keys must be
    /// unique.
    private mutating func node(closing frame: Frame) throws(HiveError) -> YAMLNode {
        let children = Array(pending[frame.start...])
        pending.removeSubrange(frame.start...)
        var size = 1
        var bytes = 0
        for child in children {
            size += child.size
            bytes += child.bytes
        }
        guard frame.isMapping else {
            return YAMLNode(content: .sequence(children), line: frame.line, size: size, bytes: bytes)
        }
        try checkUniqueKeys(children)
        return YAMLNode(content: .mapping(children), line: frame.line, size: size, bytes: bytes)
    }

    /// Throws at the second of two equal keys among a map's `children` (keys and values
    /// alternating): by comparing each with those before it in a small map, by hashing in
    /// a larger one.
    private func checkUniqueKeys(_ children: [YAMLNode]) throws(HiveError) {
        func duplicate(_ key: YAMLNode, _ name: String, first: Int) -> HiveError {
            error(line: key.line, "duplicate key \(quoted: name) in the same map (first at line \(first))")
        }
        if children.count <= 16 {
            var index = 2
            while index < children.count {
                if case .scalar(let name, _) = children[index].content {
                    var earlier = 0
                    while earlier < index {
                        if case .scalar(name, _) = children[earlier].content {
                            throw duplicate(children[index], name, first: children[earlier].line)
                        }
                        earlier += 2
                    }
                }
                index += 2
            }
            return
        }
        var firstLine = [String: Int](minimumCapacity: children.count / 2)
        var index = 0
        while index < children.count {
            if case .scalar(let name, _) = children[index].content,
                let first = firstLine.updateValue(children[index].line, forKey: name)
            {
                throw duplicate(children[index], name, first: first)
            }
            index += 2
        }
    }

    /// Counts `added` nodes, throwing once the document holds more than
    /// ``YAMLReader/maximumNodes``.
    private mutating func count(_ added: Int, line: Int) throws(HiveError) {
        nodes += added
        guard nodes > YAMLReader.maximumNodes else { return }
        throw error(
            line: line,
            "the configuration holds more than \(YAMLReader.maximumNodes.grouped) nodes"
                + " (keys, values, lists and maps, aliases counted in full)")
    }

    private func checkDepth(line: Int) throws(HiveError) {
        guard stack.count >= YAMLReader.maximumDepth else { return }
        throw error(line: line, "invalid YAML: lists and maps nested deeper than \(YAMLReader.maximumDepth) levels")
    }

    private func check(_ tag: String?, allowing allowed: String, line: Int) throws(HiveError) {
        guard let tag, tag != "!", tag != allowed else { return }
        throw unsupported(tag, line: line)
    }

    private func unsupported(_ tag: String, line: Int) -> HiveError {
        let shown = tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst(18) : tag
        return error(line: line, "invalid YAML: unsupported tag \(quoted: shown)")
    }

    /// libyaml's error, at the line it names.
    private func parseError(_ parser: yaml_parser_t) -> HiveError {
        let problem = parser.problem.map { String(cString: $0) } ?? "out of memory"
        if parser.error == YAML_READER_ERROR {
            let offset = min(parser.problem_offset, bytes.count)
            let line = bytes[..<offset].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let value = parser.problem_value == -1 ? "" : " (#x\(String(parser.problem_value, radix: 16)))"
            return error(line: line, "invalid YAML: \(problem)\(value)")
        }
        let line = Int(parser.problem_mark.line) + 1
        let column = Int(parser.problem_mark.column) + 1
        guard let context = parser.context.map({ String(cString: $0) }) else {
            return error(line: line, "invalid YAML: \(problem) at column \(column)")
        }
        return error(
            line: line,
            "invalid YAML: \(problem) at column \(column) (\(context) at line \(Int(parser.context_mark.line) + 1))")
    }

    private func error(line: Int, _ message: String) -> HiveError {
        HiveError(.invalidConfiguration, location: SourceLocation(path: file, line: max(line, 1)), message)
    }

    /// A NUL-terminated libyaml string.
    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
