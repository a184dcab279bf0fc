/// Percent-encoding (`/` → `%2F`), without Foundation: of URL parts, and of the names
/// modules give their stored descriptors. The inverse of ``PercentDecoding``.
enum PercentEncoding {
    /// `text` with every byte except RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`)
    /// written `%XX`, so it can stand as one path segment or one query name or value.
    static func encode(_ text: String) -> String {
        encode(text, keeping: isUnreserved)
    }

    /// `text` with every byte that `keeps` refuses written `%XX` (upper-case hex digits).
    static func encode(_ text: String, keeping keeps: (UInt8) -> Bool) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { !keeps($0) }) else { return text }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(utf8.count * 3)
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in utf8 {
            if keeps(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
