import Foundation
@testable import HiveDaemon
import Testing

/// The notice put where log lines are missing reads the same for stderr and the journal:
/// `20,429 log lines dropped (…)`; on stderr it is a warning line like any other.
@Suite struct DroppedLinesTests {
    @Test func countsHaveThousandsSeparators() {
        let cases = [(0, "0"), (7, "7"), (999, "999"), (1_000, "1,000"), (20_429, "20,429"), (1_234_567, "1,234,567")]
        for (count, text) in cases { #expect(count.grouped == text) }
        #expect((-1_234).grouped == "-1,234")
        #expect(DroppedLines.message(1, reason: "r") == "1 log line dropped (r)")
        #expect(DroppedLines.message(1_234, reason: "r") == "1,234 log lines dropped (r)")
    }

    @Test func theStderrNoticeIsAWarningLineWithATimestamp() throws {
        let line = StderrWriter.dropNotice(20_429)
        let pattern = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z warning 20,429 log lines dropped \(stderr was not drained\)\n$/#
        #expect(try pattern.wholeMatch(in: line) != nil, "\(line)")
    }

    @Test func theJournalNoticeSaysTheSame() {
        let entry = JournalWriter.dropNotice(1_234, identifier: "hived")
        #expect(entry.assignments.contains("MESSAGE=1,234 log lines dropped (journald was not reading)"), "\(entry.assignments)")
        #expect(entry.assignments.contains("PRIORITY=4"))
        #expect(entry.assignments.contains("SYSLOG_IDENTIFIER=hived"))
        #expect(entry.event.level == .warning)
    }
}
