/// A URL split the way the router matches it: scheme, path components and decoded query
/// items. The host is always the first path component, whatever it is (JLRoutes does
/// the same only for hosts without a dot other than `localhost`, unless told to always
/// do it). `+` is a space in the query only, never in the path (JLRoutes decodes it in
/// both). Parsed in one pass over the UTF-8 bytes: it is on the path of every
/// ``Router/open(_:extras:)``.
struct RouteURL: Sendable {
    /// Lower-cased; `nil` for a bare path such as `/cache/flush`.
    let scheme: String?
    /// Written `scheme://host…`: the first component is a host.
    let hasHost: Bool
    /// Percent-decoded path components, host first, empty components dropped.
    let components: [String]
    /// Percent-decoded query items in order (`+` is a space).
    let query: [(name: String, value: String)]

    /// Parses `text`; the host is lower-cased unless `keepsHostCase` (an action URL's
    /// host is a module name, which has case).
    ///
    /// - Throws: ``HiveError`` `.invalidRoute` for an empty URL, a malformed scheme,
    ///   whitespace or control characters, or malformed percent-encoding.
    init(_ text: String, keepsHostCase: Bool = false) throws(HiveError) {
        var utf8 = text
        let parsed = utf8.withUTF8 { Self.parse($0, keepsHostCase: keepsHostCase) }
        switch parsed {
        case .success(let parts): (scheme, hasHost, components, query) = parts
        case .failure(let reason): throw Self.invalid(text, reason.text)
        }
    }

    private struct Reason: Error { let text: String }
    private typealias Parts = (String?, Bool, [String], [(name: String, value: String)])

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, keepsHostCase: Bool) -> Result<Parts, Reason> {
        guard !bytes.isEmpty else { return .failure(Reason(text: "the URL is empty")) }
        if let bad = bytes.first(where: { $0 <= 0x20 || $0 == 0x7F }) {
            return .failure(Reason(text: "byte 0x\(String(bad, radix: 16)) must be percent-encoded"))
        }
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        let queryStart = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) ?? end
        var start = bytes.startIndex
        var scheme: String?
        /// `scheme://host…`: the first component is a host, which is case-insensitive.
        var hasHost = false
        if let colon = schemeColon(bytes[..<queryStart]) {
            guard validScheme(bytes[..<colon]) else {
                return .failure(Reason(text: "malformed scheme '\(String(decoding: bytes[..<colon], as: UTF8.self))'"))
            }
            scheme = String(decoding: bytes[..<colon].lazy.map(lowercased), as: UTF8.self)
            start = colon + 1
            if queryStart - start >= 2, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") {
                start += 2
                hasHost = true
            }
        }
        var components: [String] = []
        for part in bytes[start..<queryStart].split(separator: UInt8(ascii: "/")) {
            guard let decoded = PercentDecoding.decode(bytes: part, plusIsSpace: false) else {
                return .failure(Reason(text: "malformed encoding in '\(String(decoding: part, as: UTF8.self))'"))
            }
            let isHost = hasHost && components.isEmpty && !keepsHostCase
            components.append(isHost && part.contains(where: isUppercase) ? decoded.lowercased() : decoded)
        }
        var query: [(name: String, value: String)] = []
        if queryStart < end {
            for item in bytes[(queryStart + 1)..<end].split(separator: UInt8(ascii: "&")) {
                let equals = item.firstIndex(of: UInt8(ascii: "=")) ?? item.endIndex
                let valueStart = equals == item.endIndex ? equals : equals + 1
                guard let name = PercentDecoding.decode(bytes: item[..<equals], plusIsSpace: true),
                    let value = PercentDecoding.decode(bytes: item[valueStart...], plusIsSpace: true)
                else {
                    return .failure(Reason(text: "malformed encoding in query item '\(String(decoding: item, as: UTF8.self))'"))
                }
                if !name.isEmpty { query.append((name, value)) }
            }
        }
        return .success((scheme, hasHost, components, query))
    }

    /// The index of the `:` ending a scheme: the first `:`, if it comes before any `/`
    /// and is not the first byte.
    private static func schemeColon(_ bytes: UnsafeBufferPointer<UInt8>.SubSequence) -> Int? {
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "/"): return nil
            case UInt8(ascii: ":"): return index == bytes.startIndex ? nil : index
            default: continue
            }
        }
        return nil
    }

    private static func validScheme<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard let first = bytes.first, isLetter(first) else { return false }
        return bytes.allSatisfy { byte in
            isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isUppercase(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// Splits `scheme:` off a pattern when there is one (a `:` before any `/`, not first).
    static func splitScheme(_ text: Substring, in whole: String) throws(HiveError) -> (String?, Substring) {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, !text[..<colon].contains("/") else {
            return (nil, text)
        }
        let scheme = text[..<colon]
        guard validScheme(scheme.utf8) else {
            throw HiveError(.invalidRoute, "malformed route pattern '\(whole)': malformed scheme '\(scheme)'")
        }
        return (scheme.lowercased(), text[text.index(after: colon)...])
    }

    static func invalid(_ text: String, _ reason: String) -> HiveError {
        HiveError(.invalidRoute, "malformed URL '\(text)': \(reason)")
    }
}
