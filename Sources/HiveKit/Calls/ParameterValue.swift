/// Reads a call's parameter as the type the handler asks for: the one rule route and
/// action requests share.
enum ParameterValue {
    /// `raw` as a `Value`: itself when it is one; when `parsing` (it came from a URL,
    /// where every value is a string) also a string parsed into a
    /// `LosslessStringConvertible` `Value` (`Int`, `Double`, `Bool`…). `nil` otherwise.
    static func convert<Value>(_ raw: any Sendable, to type: Value.Type, parsing: Bool) -> Value? {
        if let value = raw as? Value { return value }
        guard parsing, let text = raw as? String,
            let parsable = Value.self as? any LosslessStringConvertible.Type
        else { return nil }
        return parsable.init(text) as? Value
    }

    /// The error for a parameter that is missing (`raw` is `nil`) or cannot be read as a
    /// `Value`: `route 'x' needs parameter 'id'`, `action 'y': parameter 'id' is the
    /// string 'abc', not an Int`.
    static func error<Value>(
        _ name: String, _ raw: (any Sendable)?, as type: Value.Type, in call: String, module: String?
    ) -> HiveError {
        guard let raw else { return HiveError(.invalidParameter, module: module, "\(call) needs parameter '\(name)'") }
        let shown = raw is String ? "the string '\(raw)'" : "a \(Swift.type(of: raw))"
        return HiveError(
            .invalidParameter, module: module, "\(call): parameter '\(name)' is \(shown), not a \(Value.self)")
    }
}
