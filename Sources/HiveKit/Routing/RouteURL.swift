/// A URL split the way the router matches it: scheme, path components and decoded query
/// items. The host is the first path component (JLRoutes does that only for hosts without
/// a dot other than `localhost`, unless told to always do it; ``Parsing`` can say the
/// same). `+` is a space in the query only, never in the path (JLRoutes decodes it in
/// both). A fragment is read as JLRoutes reads it: query items in it (`#a=b`,
/// `#/path?a=b`) join the query, and a path in it gives the URL a second form,
/// ``fragmentPath``, for patterns that name the fragment (`/user#/view/:id`). Parsed in
/// one pass over the UTF-8 bytes: it is on the path of every ``Router/open(_:extras:)``.
struct RouteURL: Sendable {
    /// How a table reads its URLs (from its ``RouteOptions``).
    struct Parsing: Sendable, Equatable {
        /// `+` in a query item is a space.
        var decodesPlusInQuery = true
        /// The host is the first path component even when it is `localhost` or has a dot.
        var alwaysTreatsHostAsPathComponent = true

        static let standard = Parsing()
    }

    /// The URL's path with its fragment's path joined on by `#`, as JLRoutes matches it:
    /// `tests://user#/view/joeldev` gives `["user#", "view", "joeldev"]`, and `join` is
    /// the index of the component holding the `#`.
    struct FragmentPath: Sendable {
        let components: [String]
        let join: Int
    }

    /// Lower-cased; `nil` for a bare path such as `/cache/flush`.
    let scheme: String?
    /// Written `scheme://host…`: the first component is a host.
    let hasHost: Bool
    /// Percent-decoded path components, host first, empty components dropped.
    let components: [String]
    /// Percent-decoded query items in order (`+` is a space unless told otherwise), then
    /// those of the fragment.
    let query: [(name: String, value: String)]
    /// The path with the fragment's path joined on; `nil` when the URL's fragment holds
    /// no path (none, or only query items).
    let fragmentPath: FragmentPath?

    /// Parses `text`; the host is lower-cased unless `keepsHostCase` (an action URL's
    /// host is a module name, which has case).
    ///
    /// - Throws: ``HiveError`` `.invalidRoute` for an empty URL, a malformed scheme,
    ///   whitespace or control characters, or malformed percent-encoding.
    init(_ text: String, keepsHostCase: Bool = false, parsing: Parsing = .standard) throws(HiveError) {
        var utf8 = text
        let parsed = utf8.withUTF8 { Self.parse($0, keepsHostCase: keepsHostCase, parsing: parsing) }
        switch parsed {
        case .success(let parts): (scheme, hasHost, components, query, fragmentPath) = parts
        case .failure(let reason): throw Self.invalid(text, reason.text)
        }
    }

    private struct Reason: Error { let text: String }
    private typealias Parts = (String?, Bool, [String], [(name: String, value: String)], FragmentPath?)
    private typealias Bytes = UnsafeBufferPointer<UInt8>.SubSequence

    private static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, keepsHostCase: Bool, parsing: Parsing
    ) -> Result<Parts, Reason> {
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
        // JLRoutes keeps only a host without a dot other than `localhost` as a component,
        // unless told to always keep it.
        let hostIsDropped = hasHost && !parsing.alwaysTreatsHostAsPathComponent
            && bytes[start...].first != UInt8(ascii: "/")
            && components.first.map { $0 == "localhost" || $0.contains(".") } == true
        if hostIsDropped { components.removeFirst() }
        var query: [(name: String, value: String)] = []
        if queryStart < end {
            if let bad = appendItems(of: bytes[(queryStart + 1)..<end], to: &query, plusIsSpace: parsing.decodesPlusInQuery) {
                return .failure(Reason(text: "malformed encoding in query item '\(String(decoding: bad, as: UTF8.self))'"))
            }
        }
        var fragmentPath: FragmentPath?
        if end < bytes.endIndex {
            let path = bytes[start..<queryStart]
            let fragment = bytes[(end + 1)...]
            switch Self.fragment(fragment, after: path, components: components, into: &query, parsing: parsing) {
            case .success(let found): fragmentPath = found
            case .failure(let reason): return .failure(reason)
            }
        }
        return .success((scheme, hasHost, components, query, fragmentPath))
    }

    /// Reads a fragment as JLRoutes does: its query (what follows its `?`, or the whole
    /// fragment when it has none) is query items if its first item has a non-empty value,
    /// and they join `query`; its path, unless it was that query, is joined to the URL's
    /// path by a `#`.
    private static func fragment(
        _ fragment: Bytes, after path: Bytes, components: [String],
        into query: inout [(name: String, value: String)], parsing: Parsing
    ) -> Result<FragmentPath?, Reason> {
        let question = fragment.firstIndex(of: UInt8(ascii: "?"))
        let fragmentPath = fragment[..<(question ?? fragment.endIndex)]
        let fragmentQuery = question.map { fragment[($0 + 1)...] } ?? fragmentPath
        let first = fragmentQuery.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).first ?? fragmentQuery[...]
        let isQuery = first.firstIndex(of: UInt8(ascii: "=")).map { $0 + 1 < first.endIndex } ?? false
        if isQuery, let bad = appendItems(of: fragmentQuery, to: &query, plusIsSpace: parsing.decodesPlusInQuery) {
            return .failure(Reason(text: "malformed encoding in query item '\(String(decoding: bad, as: UTF8.self))'"))
        }
        if isQuery, question == nil { return .success(nil) }
        var head = components
        var tail: [String] = []
        for part in fragmentPath.split(separator: UInt8(ascii: "/")) {
            guard let decoded = PercentDecoding.decode(bytes: part, plusIsSpace: false) else {
                return .failure(Reason(text: "malformed encoding in '\(String(decoding: part, as: UTF8.self))'"))
            }
            tail.append(decoded)
        }
        // The `#` joins the path's last component and the fragment's first one, unless a
        // `/` stands on either side of it.
        let before = path.last == UInt8(ascii: "/") || head.isEmpty ? "" : head.removeLast()
        let after = fragmentPath.first == UInt8(ascii: "/") || tail.isEmpty ? "" : tail.removeFirst()
        return .success(FragmentPath(components: head + [before + "#" + after] + tail, join: head.count))
    }

    /// Appends the `name=value` items of `bytes` (`&`-separated, percent-decoded; an item
    /// without a name is skipped).
    ///
    /// - Returns: the item whose encoding is malformed, if one is (the items before it
    ///   were appended).
    private static func appendItems(of bytes: Bytes, to query: inout [(name: String, value: String)], plusIsSpace: Bool) -> Bytes? {
        for item in bytes.split(separator: UInt8(ascii: "&")) {
            let equals = item.firstIndex(of: UInt8(ascii: "=")) ?? item.endIndex
            let valueStart = equals == item.endIndex ? equals : equals + 1
            guard let name = PercentDecoding.decode(bytes: item[..<equals], plusIsSpace: plusIsSpace),
                let value = PercentDecoding.decode(bytes: item[valueStart...], plusIsSpace: plusIsSpace)
            else { return item }
            if !name.isEmpty { query.append((name, value)) }
        }
        return nil
    }

    /// The index of the `:` ending a scheme: the first `:`, if it comes before any `/`
    /// and is not the first byte.
    private static func schemeColon(_ bytes: Bytes) -> Int? {
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
