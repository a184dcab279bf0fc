import HiveKit
/// The type and value of a plain (unquoted) YAML scalar, resolved with YAML 1.1's rules.
///
/// Quoted scalars are always strings.
enum PlainScalar {
    /// The type of the plain scalar `text`.
    static func type(of text: String) -> ScalarType {
        // The first byte rules out most types: names and words are strings at once.
        guard let first = text.utf8.first else { return .null }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            if int(text) != nil || hasIntegerSyntax(text) { return .int }
            return double(text) != nil ? .float : .string
        case UInt8(ascii: "~"), UInt8(ascii: "<"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"),
            UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "y"), UInt8(ascii: "Y"),
            UInt8(ascii: "o"), UInt8(ascii: "O"):
            if isNull(text) { return .null }
            if text == "<<" { return .merge }
            return bool(text) != nil ? .bool : .string
        default:
            return .string
        }
    }

    /// `~`, `null`, `Null`, `NULL` or nothing.
    static func isNull(_ text: String) -> Bool {
        text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    /// `true`/`false`, and YAML 1.1's `yes`/`no`/`on`/`off`, in lower, capitalised or upper case.
    static func bool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": false
        default: nil
        }
    }

    /// A decimal (`-12`), hexadecimal (`0x1F`), octal (`0o17`, `017`) or binary (`0b101`)
    /// integer that fits an `Int`.
    static func int(_ text: String) -> Int? {
        var bytes = text.utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var radix = 10
        if bytes.count > 1, bytes.first == UInt8(ascii: "0") {
            switch bytes.dropFirst().first {
            case UInt8(ascii: "x"): radix = 16; bytes = bytes.dropFirst(2)
            case UInt8(ascii: "o"): radix = 8; bytes = bytes.dropFirst(2)
            case UInt8(ascii: "b"): radix = 2; bytes = bytes.dropFirst(2)
            default: radix = 8; bytes = bytes.dropFirst()
            }
        }
        guard !bytes.isEmpty else { return nil }
        // Accumulated as a negative number, whose range includes Int.min.
        var value = 0
        for byte in bytes {
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            guard digit < radix else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
            let (next, underflow) = shifted.subtractingReportingOverflow(digit)
            guard !overflow, !underflow else { return nil }
            value = next
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    /// A floating-point number: `1.5`, `-2e3`, `.5`, `.inf`, `-.inf`, `.nan`.
    static func double(_ text: String) -> Double? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        guard text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }),
            text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) })
        else { return nil }
        return Double(text)
    }

    /// Integers too large for `Int`, or written with `_` or in base 60 (`1_000`, `1:30`):
    /// typed as integers, so using them is an error rather than a silent string.
    private static func hasIntegerSyntax(_ text: String) -> Bool {
        let body = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
        guard let first = body.first, first.isNumber else { return false }
        return body.allSatisfy { $0.isNumber || $0 == "_" || $0 == ":" }
    }
}
