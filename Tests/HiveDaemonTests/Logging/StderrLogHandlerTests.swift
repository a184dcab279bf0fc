@testable import HiveDaemon
import HiveKit
import Logging
import Testing

@Suite struct StderrLogHandlerTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    @Test func lineWithModuleEventAndSortedMetadata() {
        let line = StderrLogHandler.formatLine(
            timestamp: "2026-11-23T09:40:44.123Z", level: .warning, message: "handler slow",
            metadata: ["module": "store", "event": "init", "budget": "5s", "attempt": "2"])
        #expect(line == "2026-11-23T09:40:44.123Z warning [store] init: handler slow attempt=2 budget=5s\n")
    }

    @Test func lineWithoutTimestampModuleOrEvent() {
        #expect(StderrLogHandler.formatLine(timestamp: nil, level: .info, message: "hello", metadata: [:])
            == "info hello\n")
        #expect(StderrLogHandler.formatLine(timestamp: nil, level: .notice, message: "ready", metadata: ["event": "ready"])
            == "notice ready: ready\n")
    }

    @Test func valuesQuotedWhenNeeded() {
        let line = StderrLogHandler.formatLine(
            timestamp: nil, level: .error, message: "failed",
            metadata: ["path": "/etc/hived/my file.yaml", "empty": "", "note": "say \"hi\"\nbye"],
            error: Failure())
        #expect(line == #"error failed empty="" note="say \"hi\"\nbye" path="/etc/hived/my file.yaml" error="disk full""# + "\n")
    }

    @Test func timestampIsUTCWithMilliseconds() throws {
        let stamp = StderrLogHandler.timestamp()
        let pattern = try Regex(#"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#)
        #expect(stamp.wholeMatch(of: pattern) != nil)
        #expect(stamp.hasPrefix("20"))
    }

    @Test func metadataLayersMergeCallWins() {
        var handler = StderrLogHandler(level: .debug, timestamps: false)
        handler[metadataKey: "module"] = "store"
        #expect(handler.metadata == ["module": "store"])
        #expect(handler.logLevel == .debug)
        handler.logLevel = .error
        #expect(handler.logLevel == .error)
    }
}
