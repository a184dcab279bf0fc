@testable import HiveDaemon
import HiveKit
import Logging
import Testing

@Suite struct JournalFieldsTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    private func event(
        _ level: Logger.Level = .info, _ message: Logger.Message = "hello", error: (any Error)? = nil
    ) -> LogEvent {
        LogEvent(
            level: level, message: message, error: error, metadata: nil, source: "HiveKit",
            file: "HiveKit/Hive.swift", function: "start()", line: 42)
    }

    @Test(arguments: [
        (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
    ])
    func priorityIsSyslogNumber(level: Logger.Level, priority: Int) {
        #expect(DaemonLogHandler.syslogPriority(of: level) == priority)
        let fields = DaemonLogHandler.fields(for: event(level), metadata: [:], identifier: "hived")
        #expect(fields.first { $0.name == "PRIORITY" }?.value == String(priority))
    }

    @Test func fieldsInOrderWithModuleEventAndCode() {
        let fields = DaemonLogHandler.fields(
            for: event(.warning, "slow handler"),
            metadata: ["module": "store", "event": "init", "budget": "5s", "attempt": .stringConvertible(2)],
            identifier: "hived")
        #expect(fields.map(\.assignment) == [
            "MESSAGE=[store] init: slow handler",
            "PRIORITY=4",
            "SYSLOG_IDENTIFIER=hived",
            "CODE_FILE=HiveKit/Hive.swift",
            "CODE_LINE=42",
            "CODE_FUNC=start()",
            "HIVE_MODULE=store",
            "HIVE_EVENT=init",
            "HIVE_ATTEMPT=2",
            "HIVE_BUDGET=5s",
        ])
    }

    @Test func noModuleOrEventFieldsWithoutThoseKeys() {
        let names = DaemonLogHandler.fields(for: event(), metadata: [:], identifier: "hived").map(\.name)
        #expect(!names.contains("HIVE_MODULE") && !names.contains("HIVE_EVENT"))
        #expect(names.count == 6)
    }

    /// `MESSAGE` reads on its own, as the stderr line does: `journalctl`'s default output
    /// shows only it.
    @Test(arguments: [
        (["module": "store", "event": "init"] as Logger.Metadata, "[store] init: slow handler"),
        (["module": "store"], "[store] slow handler"),
        (["event": "reload"], "reload: slow handler"),
        ([:], "slow handler"),
        (["module": "a\nb", "event": "custom:\u{1B}[31m"], #"[a\nb] custom:\x1b[31m: slow handler"#),
    ])
    func messageNamesModuleAndEventAsStderrDoes(metadata: Logger.Metadata, message: String) {
        let fields = DaemonLogHandler.fields(for: event(.info, "slow handler"), metadata: metadata, identifier: "hived")
        #expect(fields.first == JournalField("MESSAGE", message))
        let line = DaemonLogHandler.formatLine(timestamp: nil, level: .info, message: "slow handler", metadata: metadata)
        #expect(line == "info " + message + "\n", "the same words on stderr")
    }

    @Test func errorBecomesField() {
        let fields = DaemonLogHandler.fields(for: event(error: Failure()), metadata: [:], identifier: "other")
        #expect(fields.last?.assignment == "HIVE_ERROR=disk full")
        #expect(fields.contains(JournalField("SYSLOG_IDENTIFIER", "other")))
    }

    @Test func multilineMessageKeptWhole() {
        let fields = DaemonLogHandler.fields(for: event(.info, "line one\nline two"), metadata: [:], identifier: "hived")
        #expect(fields.first?.value == "line one\nline two")
        let prefixed = DaemonLogHandler.fields(
            for: event(.info, "line one\nline two"), metadata: ["module": "m"], identifier: "hived")
        #expect(prefixed.first?.value == "[m] line one\nline two")
    }

    @Test(arguments: [
        ("module", "HIVE_MODULE"),
        ("request-id", "HIVE_REQUEST_ID"),
        ("a.b c", "HIVE_A_B_C"),
        ("_private", "HIVE__PRIVATE"),
        ("9lives", "HIVE_9LIVES"),
        ("ünï", "HIVE__N_"),
        ("Mixed_Case1", "HIVE_MIXED_CASE1"),
    ])
    func metadataKeysSanitised(key: String, name: String) {
        #expect(JournalField.metadataName(forKey: key) == name)
    }

    @Test func sanitisedNamesFollowJournalRules() {
        let long = String(repeating: "k", count: 200)
        for key in ["x", long, "ä-ö ü", "__", ""] {
            let name = JournalField.metadataName(forKey: key)
            #expect(name.utf8.count <= JournalField.maximumNameLength)
            #expect(!name.hasPrefix("_"))
            #expect(name.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F })
        }
        #expect(JournalField.metadataName(forKey: long).utf8.count == 64)
    }
}
