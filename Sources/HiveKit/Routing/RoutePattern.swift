/// A route pattern compiled at registration: its scheme and one segment list per variant
/// (optional groups expanded, longest variant first), so matching never parses.
struct RoutePattern: Sendable {
    enum Segment: Sendable, Hashable {
        case literal(String)
        /// `:name`, and the literal the URL's component must end with after the value: empty,
        /// `#` where a fragment begins (JLRoutes' `/:object#/:action`), or with
        /// ``RouteOptions/literalSuffixes`` what follows the name's first `.` or `&`
        /// (MGJRouter's `:id.html`).
        case parameter(String, suffix: String)
        /// `*`: the rest of the path, zero or more components; only last.
        case wildcard

        /// Whether the segment holds the `#` where a URL's fragment begins.
        var marksFragment: Bool {
            switch self {
            case .literal(let text): text.contains("#")
            case .parameter(_, let suffix): suffix.contains("#")
            case .wildcard: false
            }
        }
    }

    /// Lower-cased, like a host after `scheme://`; `nil` for a pattern of the global table.
    let scheme: String?
    /// Written `scheme://host/…`: the first segment is a host.
    let hasHost: Bool
    /// Every variant, longest first: `/a(/:b)` gives `[a, :b]` and `[a]`.
    let variants: [[Segment]]

    /// The most variants optional groups may expand to.
    static let maxVariants = 64
    /// The deepest nesting of optional groups (expansion recurses once per level).
    static let maxGroupDepth = 8

    /// Compiles `text`, e.g. `hive://cache/flush/:region`, `/files/*`, `/a(/:b)(/:c)`,
    /// `/user#/view/:id` (a route in the URL's fragment, as JLRoutes has them).
    ///
    /// - Parameters:
    ///   - literalSuffixes: a parameter's name ends at its first `.` or `&`, and the rest
    ///     of its segment is a literal suffix (MGJRouter's `:id.html`); otherwise only a
    ///     `#` ends a name.
    ///   - split: `text`'s scheme and what follows it, as ``RouteURL/splitScheme(_:in:)``
    ///     gives them, when the caller has them already (``RouteStore`` reads the options
    ///     of the scheme's table first); split again otherwise.
    /// - Throws: ``HiveError`` `.invalidRoute` for an empty pattern, a malformed scheme,
    ///   a query, more than one `#`, unbalanced parentheses, a `*` that is not the whole
    ///   last segment, an empty or repeated parameter name, or malformed percent-encoding.
    init(_ text: String, literalSuffixes: Bool = false, split: (String?, Substring)? = nil) throws(HiveError) {
        guard !text.isEmpty else { throw Self.invalid(text, "the pattern is empty") }
        if let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == "?" }) {
            throw Self.invalid(text, "'\(bad.escaped(asASCII: true))' is not allowed in a pattern")
        }
        if text.utf8.lazy.filter({ $0 == UInt8(ascii: "#") }).count > 1 {
            throw Self.invalid(text, "'#' (where the URL's fragment begins) may appear once")
        }
        var (scheme, rest) = if let split { split } else { try RouteURL.splitScheme(Substring(text), in: text) }
        let hasHost = scheme != nil && rest.hasPrefix("//")
        if hasHost { rest = rest.dropFirst(2) }
        self.scheme = scheme
        self.hasHost = hasHost
        // Only parentheses make optional groups: without one (most patterns) there is
        // nothing to check or expand, which a scan of the bytes tells far more cheaply
        // than walking the characters twice (routes are compiled during start-up).
        let hasGroups = rest.utf8.contains { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")") }
        if hasGroups { try Self.checkGroups(rest, in: text) }
        var variants: [[Segment]] = []
        for expansion in hasGroups ? try Self.expand(rest, in: text) : [rest] {
            var segments = try Self.segments(of: expansion, in: text, literalSuffixes: literalSuffixes)
            // A host is case-insensitive: URLs' hosts are lower-cased too.
            if hasHost, case .literal(let host)? = segments.first { segments[0] = .literal(host.lowercased()) }
            if !variants.contains(segments) { variants.append(segments) }
        }
        self.variants = variants.sorted { $0.count > $1.count }
    }

    /// Refuses, before anything recurses, groups nested deeper than ``maxGroupDepth`` and
    /// more groups than ``maxVariants`` (each group adds at least one expansion; the
    /// expansion recurses once per group, so thousands of them would overflow the stack).
    private static func checkGroups(_ text: Substring, in whole: String) throws(HiveError) {
        var depth = 0
        var groups = 0
        for character in text {
            if character == "(" {
                depth += 1
                groups += 1
            }
            if character == ")" { depth -= 1 }
            guard depth <= maxGroupDepth else {
                throw invalid(whole, "optional groups are nested deeper than \(maxGroupDepth) levels")
            }
            guard groups <= maxVariants else {
                throw invalid(whole, "optional groups expand to more than \(maxVariants) patterns")
            }
        }
    }

    /// Every way to keep or drop each optional `( … )` group, keep-all first.
    private static func expand(_ text: Substring, in whole: String) throws(HiveError) -> [Substring] {
        guard let open = text.firstIndex(where: { $0 == "(" || $0 == ")" }) else { return [text] }
        guard text[open] == "(" else { throw invalid(whole, "')' without '('") }
        var depth = 0
        var close: Substring.Index?
        for index in text[open...].indices {
            if text[index] == "(" { depth += 1 }
            if text[index] == ")" { depth -= 1 }
            if depth == 0 {
                close = index
                break
            }
        }
        guard let close else { throw invalid(whole, "'(' without ')'") }
        let prefix = text[..<open]
        let inner = text[text.index(after: open)..<close]
        let suffix = text[text.index(after: close)...]
        var result: [Substring] = []
        for tail in try expand(suffix, in: whole) {
            for middle in try expand(inner, in: whole) { result.append(Substring(prefix + middle + tail)) }
            result.append(Substring(prefix + tail))
            guard result.count <= maxVariants else {
                throw invalid(whole, "optional groups expand to more than \(maxVariants) patterns")
            }
        }
        return result
    }

    private static func segments(of text: Substring, in whole: String, literalSuffixes: Bool) throws(HiveError) -> [Segment] {
        let parts = text.split(separator: "/", omittingEmptySubsequences: true)
        var segments: [Segment] = []
        var names = Set<String>()
        for (index, part) in parts.enumerated() {
            if part == "*" {
                guard index == parts.count - 1 else { throw invalid(whole, "'*' must be the last segment") }
                segments.append(.wildcard)
            } else if part.first == ":" {
                let body = part.dropFirst()
                let end = body.firstIndex { $0 == "#" || (literalSuffixes && ($0 == "." || $0 == "&")) } ?? body.endIndex
                let name = String(body[..<end])
                guard !name.isEmpty, !body.contains(where: { ":*".contains($0) }) else {
                    throw invalid(whole, "malformed parameter '\(part)'")
                }
                guard let suffix = PercentDecoding.decode(body[end...]) else {
                    throw invalid(whole, "malformed percent-encoding in '\(part)'")
                }
                guard names.insert(name).inserted else { throw invalid(whole, "parameter ':\(name)' appears twice") }
                segments.append(.parameter(name, suffix: suffix))
            } else {
                guard !part.contains("*") else { throw invalid(whole, "'*' must be a whole segment, not part of '\(part)'") }
                guard let decoded = PercentDecoding.decode(part) else {
                    throw invalid(whole, "malformed percent-encoding in '\(part)'")
                }
                segments.append(.literal(decoded))
            }
        }
        return segments
    }

    static func invalid(_ text: String, _ reason: String) -> HiveError {
        HiveError(.invalidRoute, "malformed route pattern '\(text)': \(reason)")
    }
}
