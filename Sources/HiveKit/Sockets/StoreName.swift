/// The name a module's descriptor has in the descriptor store: `MODULE/NAME`, so that every
/// module has names of its own and a restarted process can tell whose each one is.
///
/// Both parts are percent-escaped: `%`, `/`, `:` (the separator of `LISTEN_FDNAMES`), space
/// and every byte outside printable ASCII become `%XX`, which keeps the result a valid
/// systemd `FDNAME=` (printable ASCII without `:`, at most 255 bytes).
enum StoreName {
    /// The longest name systemd accepts.
    static let maximumLength = 255

    /// `MODULE/NAME` escaped; nil when the name is empty or the result is too long.
    static func make(module: String, name: String) -> String? {
        guard !name.isEmpty else { return nil }
        let text = escaped(module) + "/" + escaped(name)
        return text.utf8.count <= maximumLength ? text : nil
    }

    /// The module and name of a store name made by ``make(module:name:)``; nil for any
    /// other name (a socket unit's, which has no `/` or more than one).
    static func parse(_ text: String) -> (module: String, name: String)? {
        let parts = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 2, let module = unescaped(parts[0]), let name = unescaped(parts[1]),
            !module.isEmpty, !name.isEmpty
        else { return nil }
        return (module, name)
    }

    private static func escaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "%"), byte != UInt8(ascii: "/"),
                byte != UInt8(ascii: ":")
            {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigit(byte >> 4))
                bytes.append(hexDigit(byte & 0xF))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func unescaped(_ bytes: Substring.UTF8View) -> String? {
        var result: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            guard byte == UInt8(ascii: "%") else {
                result.append(byte)
                continue
            }
            guard index < bytes.endIndex, bytes.index(after: index) < bytes.endIndex,
                let high = hexValue(bytes[index]), let low = hexValue(bytes[bytes.index(after: index)])
            else { return nil }
            result.append(high << 4 | low)
            index = bytes.index(index, offsetBy: 2)
        }
        return String(validating: result, as: UTF8.self)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
