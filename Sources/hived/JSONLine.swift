import HiveDaemon

/// Builds one line of JSON object text, without Foundation.
struct JSONLine {
    private var text = "{"
    private var isEmpty = true

    /// Adds `"key":"value"`.
    mutating func field(_ key: String, _ value: String) {
        separate()
        text += Self.quoted(key) + ":" + Self.quoted(value)
    }

    /// Adds `"key":value` with `value` already JSON (a number).
    mutating func raw(_ key: String, _ value: String) {
        separate()
        text += Self.quoted(key) + ":" + value
    }

    /// Adds `"key":{…}` with string values, keys sorted.
    mutating func object(_ key: String, _ values: [String: String]) {
        separate()
        let members = values.sorted { $0.key < $1.key }.map { Self.quoted($0.key) + ":" + Self.quoted($0.value) }
        text += Self.quoted(key) + ":{" + members.joined(separator: ",") + "}"
    }

    /// The object text and a newline.
    func finished() -> String { text + "}\n" }

    private mutating func separate() {
        if !isEmpty { text += "," }
        isEmpty = false
    }

    /// `value` as a JSON string literal.
    static func quoted(_ value: String) -> String {
        value.quoted { scalar, result in
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
}
