extension Duration {
    /// Parses durations as configuration files write them: a decimal number and a unit,
    /// `ns`, `us` (or `µs`), `ms`, `s`, `m` or `h` (`250ms`, `1.5s`, `2m`); `nil` for
    /// anything else: a number without a unit (seconds or milliseconds? it is refused
    /// rather than guessed), a sign, an exponent or hexadecimal digits (`1.5e3ms`,
    /// `0x10s`), or a value longer than ``parsingLimit`` (100 years).
    public init?(parsing text: String) {
        guard case .valid(let duration) = Self.parse(text) else { return nil }
        self = duration
    }

    /// The longest duration ``init(parsing:)`` accepts: 100 years of 365 days.
    package static let parsingLimit = Duration.seconds(100 * 365 * 86_400)

    /// What ``parse(_:)`` made of a text.
    package enum ParsedText: Equatable {
        /// A duration within ``Duration/parsingLimit``.
        case valid(Duration)
        /// Not a decimal number with a unit.
        case malformed
        /// Well formed, but longer than ``Duration/parsingLimit``.
        case beyondLimit
    }

    /// `text` read as ``init(parsing:)`` reads it, saying why it is refused.
    package static func parse(_ text: String) -> ParsedText {
        let units: [(suffix: String, nanoseconds: Double)] = [
            ("ms", 1e6), ("us", 1e3), ("µs", 1e3), ("ns", 1), ("s", 1e9), ("m", 60e9), ("h", 3600e9),
        ]
        let trimmed = text.trimmingWhitespace()
        guard let unit = units.first(where: { trimmed.hasSuffix($0.suffix) }) else { return .malformed }
        let number = trimmed.dropLast(unit.suffix.count)
        // Decimal digits with at most one point between digits: `Double(_:)` alone would
        // also take `0x10`, `1.5e3`, `+5`, `inf` and `nan`.
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        let isDecimal = (1...2).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard isDecimal, let value = Double(number) else { return .malformed }
        let nanoseconds = (value * unit.nanoseconds).rounded()
        guard nanoseconds <= Double(parsingLimit.components.seconds) * 1e9 else { return .beyondLimit }
        return .valid(.nanoseconds(Int64(nanoseconds)))
    }

    /// The duration in whole nanoseconds, saturating at `UInt64.max`.
    package var nanosecondsClamped: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (ns, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        return ns &+ UInt64(attoseconds / 1_000_000_000)
    }

    /// A short human form: `850µs`, `12.5ms`, `3.2s`.
    package var shortDescription: String {
        let ns = Double(nanosecondsClamped)
        if ns < 1e6 { return "\(Int(ns / 1e3))µs" }
        if ns < 1e9 { return "\((ns / 1e5).rounded() / 10)ms" }
        return "\((ns / 1e8).rounded() / 10)s"
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    package func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }),
            let end = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[start...end])
    }
}
