/// Percent-decoding (`%2F` → `/`), without Foundation: of URL parts, and of the names of
/// stored descriptors. The inverse of ``PercentEncoding``.
enum PercentDecoding {
    /// `text` with every `%XX` replaced by its byte (and `+` by a space when `plusIsSpace`).
    ///
    /// - Returns: `nil` when a `%` is not followed by two hex digits or the decoded bytes
    ///   are not UTF-8.
    static func decode<S: StringProtocol>(_ text: S, plusIsSpace: Bool = false) -> String? {
        decode(bytes: Array(text.utf8), plusIsSpace: plusIsSpace)
    }

    /// `bytes`, decoded as ``decode(_:plusIsSpace:)`` does.
    static func decode<Bytes: Collection<UInt8>>(bytes: Bytes, plusIsSpace: Bool) -> String? {
        let percent = UInt8(ascii: "%"), plus = UInt8(ascii: "+")
        guard bytes.contains(where: { $0 == percent || (plusIsSpace && $0 == plus) }) else {
            return String(validating: bytes, as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case percent:
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                decoded.append(high << 4 | low)
            case plus where plusIsSpace:
                decoded.append(UInt8(ascii: " "))
            default:
                decoded.append(byte)
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
