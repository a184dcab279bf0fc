import HiveKit
import CYAML

/// Reads YAML text into a ``YAMLNode`` tree with libyaml, turning its errors into
/// ``HiveError``s at `file:line`.
///
/// One document only, of at most ``ConfigurationFile/maximumSize`` bytes. Aliases are
/// resolved, and what they expand to is bounded in nodes and in bytes, so a "billion
/// laughs" file is an error rather than a hang; so is the depth of nesting. A key that appears twice in one
/// map is an error at its second line. Tags other than the core schema's
/// (`!!str`, `!!int`, `!!bool`, `!!float`, `!!null`, `!!seq`, `!!map`) are errors.
enum YAMLReader {
    /// The most nodes a document may expand to through aliases.
    static let maximumExpansion = 100_000
    /// The most bytes of scalars aliases may add to a document (4 MiB).
    static let maximumExpansionBytes = 4 << 20
    /// The deepest nesting of lists and maps accepted.
    static let maximumDepth = 100

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
private struct Composer {
    /// A sequence or map whose end event has not come yet.
    struct Frame {
        let isMapping: Bool
        let line: Int
        let anchor: String?
        var children: [YAMLNode] = []
    }

    let file: String
    let bytes: UnsafeBufferPointer<UInt8>
    var stack: [Frame] = []
    var anchors: [String: YAMLNode] = [:]
    var root: YAMLNode?
    var documents = 0
    /// Nodes added through aliases so far.
    var expanded = 0
    /// Scalar bytes added through aliases so far.
    var expandedBytes = 0

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
            guard expanded <= YAMLReader.maximumExpansion else {
                throw error(line: line, "invalid YAML: aliases expand to more than \(YAMLReader.maximumExpansion) nodes")
            }
            guard expandedBytes <= YAMLReader.maximumExpansionBytes else {
                throw error(
                    line: line, "invalid YAML: aliases expand to more than \(YAMLReader.maximumExpansionBytes >> 20) MiB")
            }
            add(node, anchor: nil)
        case YAML_SCALAR_EVENT:
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
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            try check(Self.string(start.tag), allowing: "tag:yaml.org,2002:seq", line: line)
            try checkDepth(line: line)
            stack.append(Frame(isMapping: false, line: line, anchor: Self.string(start.anchor)))
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            try check(Self.string(start.tag), allowing: "tag:yaml.org,2002:map", line: line)
            try checkDepth(line: line)
            stack.append(Frame(isMapping: true, line: line, anchor: Self.string(start.anchor)))
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
            stack[stack.count - 1].children.append(node)
        }
    }

    /// The sequence or map `frame` collected; a map's keys must be unique.
    private func node(closing frame: Frame) throws(HiveError) -> YAMLNode {
        let size = frame.children.reduce(1) { $0 + $1.size }
        let bytes = frame.children.reduce(0) { $0 + $1.bytes }
        guard frame.isMapping else {
            return YAMLNode(content: .sequence(frame.children), line: frame.line, size: size, bytes: bytes)
        }
        var pairs: [(key: YAMLNode, value: YAMLNode)] = []
        pairs.reserveCapacity(frame.children.count / 2)
        var firstLine: [String: Int] = [:]
        var index = 0
        while index + 1 < frame.children.count {
            let key = frame.children[index]
            if case .scalar(let name, _) = key.content {
                if let first = firstLine[name] {
                    throw error(line: key.line, "duplicate key \(quoted: name) in the same map (first at line \(first))")
                }
                firstLine[name] = key.line
            }
            pairs.append((key, frame.children[index + 1]))
            index += 2
        }
        return YAMLNode(content: .mapping(pairs), line: frame.line, size: size, bytes: bytes)
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
