/// One value in a module's settings, as a configuration file gives it.
public enum SettingValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case list([SettingValue])
    case map([String: SettingValue])
    case null

    /// The value's type as error messages name it.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .int: "integer"
        case .double: "number"
        case .bool: "boolean"
        case .list: "list"
        case .map: "map"
        case .null: "null"
        }
    }

    public var description: String {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        case .list(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .map(let values):
            "{" + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
                .joined(separator: ", ") + "}"
        case .null: "null"
        }
    }
}
