import FoundationEssentials

/// Encodes Varlink messages: JSON (FoundationEssentials' `JSONEncoder`) plus the
/// terminating NUL byte.
enum VarlinkCoding {
    private struct Reply<Parameters: Encodable>: Encodable {
        let parameters: Parameters
        let continues: Bool?
    }

    /// A reply carrying `parameters`; `continues` marks all but the last reply to a `more` call.
    static func reply<Parameters: Encodable>(_ parameters: Parameters, continues: Bool = false) -> [UInt8] {
        encode(Reply(parameters: parameters, continues: continues ? true : nil))
    }

    /// `value` as JSON with a NUL at the end; an encoding failure (impossible for the
    /// plain structs used here) becomes an empty object.
    static func encode<Value: Encodable>(_ value: Value) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        var bytes = (try? encoder.encode(value)).map { [UInt8]($0) } ?? Array("{}".utf8)
        bytes.append(0)
        return bytes
    }
}
