@testable import HiveDaemon

/// Decodes any `Decodable` type out of nothing, making up a sample value as the type asks
/// for it, and records the ``Shape`` it asked for: which keys, which of them it treats as
/// optional (`decodeIfPresent`), and what each holds.
///
/// Every optional field is present (but those in `leavingOut`, at the top level), every
/// array and map holds one element, a string is `"sample"`, a number 1, a boolean true, and
/// a ``JSONValue`` (Varlink's `object`) a one-member object.
enum SampleDecoder {
    /// A sample of `type` and the shape decoding it asked for.
    static func sample<T: Decodable>(_ type: T.Type, leavingOut: Set<String> = []) throws -> (value: T, shape: Shape) {
        let node = Node()
        let value = try Node.sample(type, into: node, codingPath: [], leavingOut: leavingOut)
        return (value, node.shape)
    }
}

/// What one value asked for, as decoding goes.
private final class Node {
    enum Kind {
        case nothing
        case leaf(Shape)
        case keyed
        case unkeyed(element: Node)
    }

    var kind = Kind.nothing
    /// A keyed container's fields by key, as they were decoded.
    var fields: [String: Node] = [:]
    /// The keys asked about before being decoded (`contains`, `decodeNil`): optional ones.
    var optionalKeys: Set<String> = []
    /// Whether the keyed container's keys were listed, as a dictionary does.
    var isMap = false

    var shape: Shape {
        switch kind {
        case .nothing:
            return .record([:])
        case .leaf(let shape):
            return shape
        case .unkeyed(let element):
            return .array(element.shape)
        case .keyed where isMap:
            return .map(fields.values.first?.shape ?? .object)
        case .keyed:
            var record: [String: Shape.Field] = [:]
            for (key, field) in fields {
                record[key] = Shape.Field(shape: field.shape, isOptional: optionalKeys.contains(key))
            }
            return .record(record)
        }
    }

    /// A sample of `type`, recorded in `node`.
    static func sample<T: Decodable>(
        _ type: T.Type, into node: Node, codingPath: [any CodingKey], leavingOut: Set<String> = []
    ) throws -> T {
        if let (shape, value) = primitive(type) {
            node.kind = .leaf(shape)
            return value
        }
        if let value = JSONValue.object(["key": .string("value")]) as? T {
            node.kind = .leaf(.object)
            return value
        }
        return try T(from: Decoding(node: node, codingPath: codingPath, leavingOut: leavingOut))
    }

    /// The shape and sample of a type a container decodes as one value.
    private static func primitive<T>(_ type: T.Type) -> (Shape, T)? {
        let sample: (Shape, Any)? = switch type {
        case is String.Type: (.string, "sample")
        case is Bool.Type: (.bool, true)
        case is Int.Type: (.int, 1 as Int)
        case is Int8.Type: (.int, 1 as Int8)
        case is Int16.Type: (.int, 1 as Int16)
        case is Int32.Type: (.int, 1 as Int32)
        case is Int64.Type: (.int, 1 as Int64)
        case is UInt.Type: (.int, 1 as UInt)
        case is UInt8.Type: (.int, 1 as UInt8)
        case is UInt16.Type: (.int, 1 as UInt16)
        case is UInt32.Type: (.int, 1 as UInt32)
        case is UInt64.Type: (.int, 1 as UInt64)
        case is Double.Type: (.float, 1.5 as Double)
        case is Float.Type: (.float, 1.5 as Float)
        default: nil
        }
        return sample.map { ($0.0, $0.1 as! T) }
    }
}

/// The decoder a sampled value decodes itself from.
private struct Decoding: Decoder {
    let node: Node
    let codingPath: [any CodingKey]
    let leavingOut: Set<String>
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        node.kind = .keyed
        return KeyedDecodingContainer(Keyed<Key>(node: node, codingPath: codingPath, leavingOut: leavingOut))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let element = Node()
        node.kind = .unkeyed(element: element)
        return Unkeyed(element: element, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(node: node, codingPath: codingPath)
    }
}

/// A key for an array element.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private func unsupported(_ what: String, at codingPath: [any CodingKey]) -> DecodingError {
    .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: "SampleDecoder does not do \(what)"))
}

private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]
    let leavingOut: Set<String>

    /// One key: asked for by a dictionary, which decodes a value for each key it lists.
    var allKeys: [Key] {
        node.isMap = true
        return Key(stringValue: "key").map { [$0] } ?? []
    }

    func contains(_ key: Key) -> Bool {
        node.optionalKeys.insert(key.stringValue)
        return !leavingOut.contains(key.stringValue)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        node.optionalKeys.insert(key.stringValue)
        return leavingOut.contains(key.stringValue)
    }

    private func value<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        guard !leavingOut.contains(key.stringValue) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "left out"))
        }
        let child = Node()
        let value = try Node.sample(type, into: child, codingPath: codingPath + [key])
        node.fields[key.stringValue] = child
        return value
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(type, key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(type, key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw unsupported("nested containers", at: codingPath + [key])
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw unsupported("nested containers", at: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder { throw unsupported("super decoders", at: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw unsupported("super decoders", at: codingPath) }
}

private struct Unkeyed: UnkeyedDecodingContainer {
    let element: Node
    let codingPath: [any CodingKey]
    var count: Int? { 1 }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= 1 }

    mutating func decodeNil() throws -> Bool { false }

    private mutating func value<T: Decodable>(_ type: T.Type) throws -> T {
        defer { currentIndex += 1 }
        return try Node.sample(type, into: element, codingPath: codingPath + [IndexKey(currentIndex)])
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
    mutating func decode(_ type: String.Type) throws -> String { try value(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try value(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try value(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try value(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw unsupported("nested containers", at: codingPath)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw unsupported("nested containers", at: codingPath)
    }

    mutating func superDecoder() throws -> any Decoder { throw unsupported("super decoders", at: codingPath) }
}

private struct Single: SingleValueDecodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }

    private func value<T: Decodable>(_ type: T.Type) throws -> T {
        try Node.sample(type, into: node, codingPath: codingPath)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
    func decode(_ type: String.Type) throws -> String { try value(type) }
    func decode(_ type: Double.Type) throws -> Double { try value(type) }
    func decode(_ type: Float.Type) throws -> Float { try value(type) }
    func decode(_ type: Int.Type) throws -> Int { try value(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }
}
