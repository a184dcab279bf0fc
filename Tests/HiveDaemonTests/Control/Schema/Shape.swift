/// What a Varlink value looks like, as an interface description writes it and as a Swift
/// type encodes or decodes it: the common ground on which the two are compared.
indirect enum Shape: Equatable, CustomStringConvertible {
    case string, int, bool, float
    /// Varlink's `object`: any JSON value.
    case object
    case array(Shape)
    /// `[string]T`.
    case map(Shape)
    /// A struct: its fields by name.
    case record([String: Field])

    /// One field of a record.
    struct Field: Equatable {
        var shape: Shape
        /// Written `?T`: the field may be missing or null.
        var isOptional: Bool
    }

    /// As the interface description writes it.
    var description: String {
        switch self {
        case .string: "string"
        case .int: "int"
        case .bool: "bool"
        case .float: "float"
        case .object: "object"
        case .array(let element): "[]\(element)"
        case .map(let value): "[string]\(value)"
        case .record(let fields):
            "(" + fields.sorted { $0.key < $1.key }
                .map { "\($0.key): \($0.value.isOptional ? "?" : "")\($0.value.shape)" }
                .joined(separator: ", ") + ")"
        }
    }

    /// Where `other` (the Swift side) differs from this shape (the interface's), one line
    /// each, naming the field by its path from `path`.
    func differences(from other: Shape, at path: String) -> [String] {
        switch (self, other) {
        case (.array(let mine), .array(let theirs)), (.map(let mine), .map(let theirs)):
            return mine.differences(from: theirs, at: path + "[]")
        case (.record(let mine), .record(let theirs)):
            var found: [String] = []
            for name in Set(mine.keys).union(theirs.keys).sorted() {
                let place = path.isEmpty ? name : path + "." + name
                switch (mine[name], theirs[name]) {
                case (let field?, nil): found.append("\(place): the interface has it (\(field.shape)), Swift does not")
                case (nil, let field?): found.append("\(place): Swift has it (\(field.shape)), the interface does not")
                case (let field?, let swift?):
                    if field.isOptional != swift.isOptional {
                        found.append("\(place): \(field.isOptional ? "optional" : "required") in the interface, not in Swift")
                    }
                    found += field.shape.differences(from: swift.shape, at: place)
                case (nil, nil): break
                }
            }
            return found
        default:
            return self == other ? [] : ["\(path.isEmpty ? "(the value)" : path): the interface has \(self), Swift \(other)"]
        }
    }
}
