/// One value in a module's settings, as a configuration file gives it.
public enum SettingValue: Sendable, Hashable, CustomStringConvertible {
    /// A string (`path: /var/lib/x`, or a quoted `"42"`).
    case string(String)
    /// An integer (`port: 8080`, `0x10`).
    case int(Int)
    /// A number with a fraction or an exponent (`ratio: 0.5`).
    case double(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// A list (`[a, b]`).
    case list([SettingValue])
    /// A map (`{a: 1}`), as nested settings.
    case map([String: SettingValue])
    /// No value (`~`, `null`, or a key with nothing after it).
    case null

    /// The value's type as error messages name it.
    var typeName: String {
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

    /// The value as YAML's flow style would write it, unquoted (`[a, b]`, `{a: 1}`).
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
