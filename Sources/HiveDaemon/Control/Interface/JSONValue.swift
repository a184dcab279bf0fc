import FoundationEssentials

/// Any JSON value: what a route or action called from outside the process returns, as
/// `OpenURL` and `PerformAction` carry it, and as `ctl` reads it back.
enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Why a handler's result cannot be sent as JSON.
    struct Unrepresentable: Error {
        let reason: String
    }

    /// `value` as JSON: strings, numbers, booleans, `nil` and `()` (null), arrays and
    /// string-keyed maps of those, or any `Encodable` value as it encodes itself.
    ///
    /// - Throws: ``Unrepresentable`` naming the type that is none of those (or a number
    ///   JSON has no word for: NaN, infinities).
    init(converting value: Any) throws(Unrepresentable) {
        if value is Void {
            self = .null
        } else if let optional = value as? any OptionalProtocol {
            guard let wrapped = optional.wrapped else {
                self = .null
                return
            }
            self = try JSONValue(converting: wrapped)
        } else if let bool = value as? Bool {
            self = .bool(bool)
        } else if let text = value as? any StringProtocol {
            self = .string(String(text))
        } else if let integer = value as? any BinaryInteger {
            if let signed = Int64(exactly: integer) {
                self = .int(signed)
            } else if let unsigned = UInt64(exactly: integer) {
                self = .unsigned(unsigned)
            } else {
                throw Unrepresentable(reason: "the integer \(integer) is wider than 64 bits")
            }
        } else if let number = value as? any BinaryFloatingPoint {
            let double = Double(number)
            guard double.isFinite else { throw Unrepresentable(reason: "the number \(double) has no JSON form") }
            self = .double(double)
        } else if let array = value as? [Any] {
            var elements: [JSONValue] = []
            for element in array { elements.append(try JSONValue(converting: element)) }
            self = .array(elements)
        } else if let map = value as? [String: Any] {
            var members: [String: JSONValue] = [:]
            for (key, member) in map { members[key] = try JSONValue(converting: member) }
            self = .object(members)
        } else if let encodable = value as? any Encodable {
            do {
                let data = try JSONEncoder().encode(encodable)
                self = try JSONDecoder().decode(JSONValue.self, from: data)
            } catch {
                throw Unrepresentable(reason: "encoding a \(type(of: value)) failed: \(error)")
            }
        } else {
            throw Unrepresentable(reason: "a \(type(of: value)) is not a string, number, boolean, array, map or Encodable value")
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int64.self) {
            self = .int(int)
        } else if let unsigned = try? container.decode(UInt64.self) {
            self = .unsigned(unsigned)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .int(let int): try container.encode(int)
        case .unsigned(let unsigned): try container.encode(unsigned)
        case .double(let double): try container.encode(double)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }

    /// The value as `ctl` prints it: a string as it is, anything else as compact JSON with
    /// sorted keys.
    var printed: String {
        if case .string(let text) = self { return text }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

/// Lets ``JSONValue/init(converting:)`` see into an `Optional` held as `Any`.
private protocol OptionalProtocol {
    var wrapped: Any? { get }
}

extension Optional: OptionalProtocol {
    fileprivate var wrapped: Any? { self.map { $0 as Any } }
}
