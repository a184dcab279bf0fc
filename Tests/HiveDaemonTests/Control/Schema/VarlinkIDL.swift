/// A Varlink interface description, parsed: its types, methods and errors, each as the
/// ``Shape`` of its fields, named types resolved.
///
/// Reads what the Varlink specification's grammar allows, but for enums (`type T (a, b)`)
/// and optional elements (`[]?T`), which the control interface does not use: those are
/// parse errors here, so that using them makes this test say so.
struct VarlinkIDL {
    /// A method's parameters and reply.
    struct Method {
        let parameters: Shape
        let reply: Shape
    }

    /// Why a description could not be read, with the text where it stopped.
    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// `io.hivekit.Daemon`.
    let name: String
    /// By the method's own name (`GetStatus`).
    let methods: [String: Method]
    /// By the error's own name (`ConfigurationInvalid`); each is a record.
    let errors: [String: Shape]

    /// The description `text`.
    init(parsing text: String) throws(ParseError) {
        var tokens = Tokens(text)
        try tokens.expect("interface")
        name = try tokens.name()
        var types: [String: Unresolved] = [:]
        var methods: [String: (Unresolved, Unresolved)] = [:]
        var errors: [String: Unresolved] = [:]
        while let keyword = tokens.next() {
            let member = try tokens.name()
            switch keyword {
            case "type": types[member] = try tokens.record()
            case "method":
                let parameters = try tokens.record()
                try tokens.expect("->")
                methods[member] = (parameters, try tokens.record())
            case "error": errors[member] = try tokens.record()
            default: throw ParseError(description: "expected type, method or error, got '\(keyword)'")
            }
        }
        var resolvedMethods: [String: Method] = [:]
        for (method, (parameters, reply)) in methods {
            resolvedMethods[method] = Method(parameters: try parameters.resolved(types), reply: try reply.resolved(types))
        }
        var resolvedErrors: [String: Shape] = [:]
        for (error, fields) in errors { resolvedErrors[error] = try fields.resolved(types) }
        self.methods = resolvedMethods
        self.errors = resolvedErrors
    }

    /// A type as written, before named types are looked up.
    fileprivate indirect enum Unresolved {
        case shape(Shape)
        case named(String)
        case array(Unresolved)
        case map(Unresolved)
        case record([(name: String, type: Unresolved, isOptional: Bool)])

        func resolved(_ types: [String: Unresolved], seen: Set<String> = []) throws(ParseError) -> Shape {
            switch self {
            case .shape(let shape): return shape
            case .array(let element): return .array(try element.resolved(types, seen: seen))
            case .map(let value): return .map(try value.resolved(types, seen: seen))
            case .named(let name):
                guard let type = types[name] else { throw ParseError(description: "unknown type '\(name)'") }
                guard !seen.contains(name) else { throw ParseError(description: "type '\(name)' contains itself") }
                return try type.resolved(types, seen: seen.union([name]))
            case .record(let fields):
                var resolved: [String: Shape.Field] = [:]
                for field in fields {
                    guard resolved[field.name] == nil else { throw ParseError(description: "field '\(field.name)' twice") }
                    resolved[field.name] = Shape.Field(shape: try field.type.resolved(types, seen: seen), isOptional: field.isOptional)
                }
                return .record(resolved)
            }
        }
    }

    /// The description's words and punctuation, comments left out.
    private struct Tokens {
        private var tokens: [String]
        private var position = 0

        init(_ text: String) {
            var tokens: [String] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                var rest = line.prefix { $0 != "#" }[...]
                while let first = rest.first {
                    if first.isWhitespace {
                        rest = rest.dropFirst()
                    } else if rest.hasPrefix("->") {
                        tokens.append("->")
                        rest = rest.dropFirst(2)
                    } else if "(),:?[]".contains(first) {
                        tokens.append(String(first))
                        rest = rest.dropFirst()
                    } else {
                        let word = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
                        tokens.append(word.isEmpty ? String(first) : String(word))
                        rest = rest.dropFirst(max(word.count, 1))
                    }
                }
            }
            self.tokens = tokens
        }

        mutating func next() -> String? {
            guard position < tokens.count else { return nil }
            defer { position += 1 }
            return tokens[position]
        }

        func peek() -> String? { position < tokens.count ? tokens[position] : nil }

        mutating func expect(_ token: String) throws(ParseError) {
            let found = next()
            guard found == token else { throw ParseError(description: "expected '\(token)', got '\(found ?? "the end")'") }
        }

        mutating func name() throws(ParseError) -> String {
            guard let word = next(), word.first?.isLetter == true else {
                throw ParseError(description: "expected a name near token \(position)")
            }
            return word
        }

        /// `( name: type, … )`.
        mutating func record() throws(ParseError) -> Unresolved {
            try expect("(")
            var fields: [(name: String, type: Unresolved, isOptional: Bool)] = []
            while peek() != ")" {
                if !fields.isEmpty { try expect(",") }
                let field = try name()
                guard peek() == ":" else { throw ParseError(description: "'\(field)' has no type (an enum?)") }
                try expect(":")
                let isOptional = peek() == "?"
                if isOptional { _ = next() }
                fields.append((field, try type(), isOptional))
            }
            try expect(")")
            return .record(fields)
        }

        /// `string`, `int`, `bool`, `float`, `object`, `[]T`, `[string]T`, `(…)` or a type's name.
        mutating func type() throws(ParseError) -> Unresolved {
            switch peek() {
            case "(": return try record()
            case "[":
                _ = next()
                if peek() == "]" {
                    _ = next()
                    guard peek() != "?" else { throw ParseError(description: "optional array elements are not read") }
                    return .array(try type())
                }
                try expect("string")
                try expect("]")
                return .map(try type())
            default:
                switch try name() {
                case "string": return .shape(.string)
                case "int": return .shape(.int)
                case "bool": return .shape(.bool)
                case "float": return .shape(.float)
                case "object": return .shape(.object)
                case let other: return .named(other)
                }
            }
        }
    }
}
