import HiveKit
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DaemonLogHandler {
    /// One log line, newline included: `[TIMESTAMP ]LEVEL[ [MODULE]][ EVENT:] MESSAGE[ key=value…][ error=…]`.
    ///
    /// Pure. `module` and `event` come from the metadata keys of those names (the same
    /// prefix as the journal's `MESSAGE`); the other keys
    /// follow sorted, with values quoted when they are empty or hold a space, `"`, `=` or a
    /// control character. Control characters anywhere (message, module, event, keys,
    /// values, error) are escaped (`\n`, `\x1b`…), so no value can start a line of its own
    /// or drive a terminal: a log line cannot be forged. With `colors`, the level is
    /// coloured by escape sequences added here, never taken from the text.
    static func formatLine(
        timestamp: String?,
        level: Logger.Level,
        message: String,
        metadata: Logger.Metadata,
        error: (any Error)? = nil,
        colors: Bool = false
    ) -> String {
        var line = ""
        if let timestamp { line += timestamp + " " }
        line += colors ? "\u{1B}[\(colorCode(level))m\(level.rawValue)\u{1B}[0m" : level.rawValue
        line += " " + ModuleEventPrefix.prefix(metadata) + escaped(message)
        for key in metadata.keys.sorted() where key != "module" && key != "event" {
            line += " " + escaped(key) + "=" + quoted("\(metadata[key]!)")
        }
        if let error { line += " error=" + quoted("\(error)") }
        return line + "\n"
    }

    /// The ANSI code of a level's colour: dim for trace and debug, plain for info, cyan,
    /// yellow, red, then bold red for critical.
    private static func colorCode(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: "2"
        case .info: "0"
        case .notice: "36"
        case .warning: "33"
        case .error: "31"
        case .critical: "1;31"
        }
    }

    /// Whether lines should be coloured: stderr is a terminal, `NO_COLOR` is unset or empty
    /// (no-color.org) and `TERM` is not `dumb`. Under systemd stderr is the journal or a
    /// pipe, never a terminal: plain.
    static func wantsColors(environment: [String: String], isTerminal: Bool = isatty(STDERR_FILENO) == 1) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// The current time as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC, milliseconds).
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        return "\(parts.tm_year + 1900)-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
            + "T\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2))"
            + ".\(padded(Int32(now.tv_nsec / 1_000_000), 3))Z"
    }

    private static func padded(_ value: Int32, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func quoted(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.unicodeScalars.contains {
            $0 == " " || $0 == "\"" || $0 == "=" || $0.value < 0x20 || (0x7F..<0xA0).contains($0.value)
        }
        guard needsQuotes else { return value }
        return value.quoted { scalar, result in appendEscaping(scalar, to: &result) }
    }

    /// `text` with control characters written as escapes: `\n`, `\r`, `\t`, `\x1b`,
    /// `\u{85}`. Returned as is (no copy) when it has none.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: appendEscaping(scalar, to: &result)
            }
        }
        return result
    }

    private static func appendEscaping(_ scalar: Unicode.Scalar, to result: inout String) {
        switch scalar.value {
        case 0..<0x20, 0x7F: result += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
        case 0x80..<0xA0: result += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: result.unicodeScalars.append(scalar)
        }
    }
}
