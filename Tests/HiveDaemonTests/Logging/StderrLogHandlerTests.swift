@testable import HiveDaemon
import HiveKit
import Logging
import Testing

@Suite struct StderrLogHandlerTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    @Test func lineWithModuleEventAndSortedMetadata() {
        let line = DaemonLogHandler.formatLine(
            timestamp: "2026-11-23T09:40:44.123Z", level: .warning, message: "handler slow",
            metadata: ["module": "store", "event": "init", "budget": "5s", "attempt": "2"])
        #expect(line == "2026-11-23T09:40:44.123Z warning [store] init: handler slow attempt=2 budget=5s\n")
    }

    /// On a terminal the level is coloured; plain otherwise, with NO_COLOR, or TERM=dumb.
    @Test func levelsAreColouredOnlyWhereWanted() {
        let line = DaemonLogHandler.formatLine(
            timestamp: nil, level: .warning, message: "slow", metadata: ["module": "store"], colors: true)
        #expect(line == "\u{1B}[33mwarning\u{1B}[0m [store] slow\n")
        #expect(DaemonLogHandler.formatLine(timestamp: nil, level: .error, message: "x", metadata: [:], colors: true)
            .hasPrefix("\u{1B}[31merror\u{1B}[0m"))
        #expect(DaemonLogHandler.wantsColors(environment: [:], isTerminal: true))
        #expect(!DaemonLogHandler.wantsColors(environment: [:], isTerminal: false), "a pipe, the journal: plain")
        #expect(!DaemonLogHandler.wantsColors(environment: ["NO_COLOR": "1"], isTerminal: true))
        #expect(DaemonLogHandler.wantsColors(environment: ["NO_COLOR": ""], isTerminal: true), "an empty NO_COLOR is unset")
        #expect(!DaemonLogHandler.wantsColors(environment: ["TERM": "dumb"], isTerminal: true))
    }

    /// The colour's escape sequences are the handler's own; those in the text are escaped,
    /// so no value starts a line of its own or recolours the terminal.
    @Test func controlCharactersAreEscapedAndColoursStayTheHandlers() {
        let forged = "x\n2026-01-01T00:00:00.000Z critical [fake] \u{1B}[31mred\u{85}"
        let line = DaemonLogHandler.formatLine(
            timestamp: nil, level: .warning, message: "got \(forged)",
            metadata: ["module": "m\(forged)", "event": "custom:\(forged)", "key\n": "\(forged)"], colors: true)
        #expect(line == "\u{1B}[33mwarning\u{1B}[0m"
            + #" [mx\n2026-01-01T00:00:00.000Z critical [fake] \x1b[31mred\u{85}]"#
            + #" custom:x\n2026-01-01T00:00:00.000Z critical [fake] \x1b[31mred\u{85}:"#
            + #" got x\n2026-01-01T00:00:00.000Z critical [fake] \x1b[31mred\u{85}"#
            + #" key\n="x\n2026-01-01T00:00:00.000Z critical [fake] \x1b[31mred\u{85}""#
            + "\n")
        #expect(line.filter { $0 == "\n" }.count == 1, "one line")
        #expect(line.unicodeScalars.filter { $0 == "\u{1B}" }.count == 2, "only the level's colour")
    }

    @Test func lineWithoutTimestampModuleOrEvent() {
        #expect(DaemonLogHandler.formatLine(timestamp: nil, level: .info, message: "hello", metadata: [:])
            == "info hello\n")
        #expect(DaemonLogHandler.formatLine(timestamp: nil, level: .notice, message: "ready", metadata: ["event": "ready"])
            == "notice ready: ready\n")
    }

    @Test func valuesQuotedWhenNeeded() {
        let line = DaemonLogHandler.formatLine(
            timestamp: nil, level: .error, message: "failed",
            metadata: ["path": "/etc/hived/my file.yaml", "empty": "", "note": "say \"hi\"\nbye"],
            error: Failure())
        #expect(line == #"error failed empty="" note="say \"hi\"\nbye" path="/etc/hived/my file.yaml" error="disk full""# + "\n")
    }

    @Test func timestampIsUTCWithMilliseconds() throws {
        let stamp = DaemonLogHandler.timestamp()
        let pattern = try Regex(#"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#)
        #expect(stamp.wholeMatch(of: pattern) != nil)
        #expect(stamp.hasPrefix("20"))
    }

    @Test func metadataLayersMergeCallWins() {
        var handler = DaemonLogHandler(.stderr(colors: false), sharedLevel: LogLevelStore(.debug))
        handler[metadataKey: "module"] = "store"
        #expect(handler.metadata == ["module": "store"])
        #expect(handler.logLevel == .debug)
        handler.logLevel = .error
        #expect(handler.logLevel == .error)
    }
}
