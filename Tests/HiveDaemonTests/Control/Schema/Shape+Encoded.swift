@testable import HiveDaemon

extension Shape {
    /// Where `value`, what Swift encoded from a sample with every optional field present,
    /// differs from this shape (the interface's): a field too many or too few, or a value
    /// of another kind. One line each, naming the field by its path from `path`.
    func differences(fromEncoded value: JSONValue, at path: String) -> [String] {
        let place = path.isEmpty ? "(the value)" : path
        switch (self, value) {
        case (.string, .string), (.int, .int), (.int, .unsigned), (.bool, .bool), (.float, .double), (.float, .int), (.object, _):
            return []
        case (.array(let element), .array(let values)):
            return values.flatMap { element.differences(fromEncoded: $0, at: path + "[]") }
        case (.map(let shape), .object(let values)):
            return values.values.flatMap { shape.differences(fromEncoded: $0, at: path + "[]") }
        case (.record(let fields), .object(let values)):
            var found: [String] = []
            for name in Set(fields.keys).union(values.keys).sorted() {
                let field = path.isEmpty ? name : path + "." + name
                switch (fields[name], values[name]) {
                case (let expected?, let encoded?): found += expected.shape.differences(fromEncoded: encoded, at: field)
                case (_?, nil): found.append("\(field): the interface has it, Swift does not encode it")
                case (nil, _?): found.append("\(field): Swift encodes it, the interface does not have it")
                case (nil, nil): break
                }
            }
            return found
        default:
            return ["\(place): the interface has \(self), Swift encodes \(value)"]
        }
    }

    /// The fields of a record; none for any other shape.
    var fields: [String: Field] {
        guard case .record(let fields) = self else { return [:] }
        return fields
    }
}
