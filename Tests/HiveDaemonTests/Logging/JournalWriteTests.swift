import Foundation
import Glibc
@testable import HiveDaemon
import HiveKit
import Logging
import Synchronization
import Testing

extension ProcessEnvironmentSuite {
    /// Real writes through `sd_journal_sendv` into a journal socket the test owns
    /// (``PrivateJournal``), and the stderr fallback; fd 2 is redirected, hence the
    /// serialized parent suite.
    ///
    /// Inside ``PrivateJournal/capture(_:_:)`` only `SystemdCalls.journalSend` is called,
    /// never a `DaemonLogHandler`: its writer thread, started by the first entry, would be
    /// born in that thread's mount namespace and stay there.
    @Suite struct JournalWriteTests {
        @Test(.enabled(if: PrivateJournal.shouldRun, "needs root, for a journal socket of its own"))
        func entriesReachTheJournalWithTheirFields() async throws {
            let marker = "journal-write-test-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            let event = LogEvent(
                level: .warning, message: "\(marker)\nsecond line", metadata: nil, source: "HiveKit",
                file: "HiveKit/Hive.swift", function: "start()", line: 42)
            let fields = DaemonLogHandler.fields(
                for: event, metadata: ["module": "probe", "event": "init", "path": "/var/lib/x"], identifier: "hived")
            let results = Mutex<[Int32]>([])
            let entries = try await PrivateJournal.capture {
                let raw = SystemdCalls.journalSend(["MESSAGE=\(marker) raw", "SYSLOG_IDENTIFIER=hived-test"])
                let built = SystemdCalls.journalSend(fields.map(\.assignment))
                results.withLock { $0 = [raw, built] }
            }
            #expect(results.withLock { $0 } == [0, 0])
            #expect(entries.count == 2, "\(entries)")
            let raw = try #require(entries.first)
            #expect(raw["MESSAGE"] == "\(marker) raw")
            #expect(raw["SYSLOG_IDENTIFIER"] == "hived-test")
            let logged = try #require(entries.last)
            #expect(logged["MESSAGE"] == "[probe] init: \(marker)\nsecond line",
                    "the message names the module and the event, and arrives whole: \(logged)")
            #expect(logged["PRIORITY"] == "4")
            #expect(logged["SYSLOG_IDENTIFIER"] == "hived")
            #expect(logged["HIVE_MODULE"] == "probe")
            #expect(logged["HIVE_EVENT"] == "init")
            #expect(logged["HIVE_PATH"] == "/var/lib/x")
            #expect(logged["CODE_FILE"] == "HiveKit/Hive.swift", "\(logged)")
            #expect(logged["CODE_LINE"] == "42", "\(logged)")
            #expect(logged["CODE_FUNC"] == "start()", "\(logged)")
        }

        @Test(.enabled(if: PrivateJournal.shouldRun, "needs root, for a journal socket of its own"))
        func aJournalThatRefusesEntriesIsReportedNotIgnored() async throws {
            let result = Mutex<Int32>(0)
            _ = try await PrivateJournal.capture(.refusing) {
                result.withLock { $0 = SystemdCalls.journalSend(["MESSAGE=refused"]) }
            }
            // The error JournalWriter falls back to stderr on (see the next test).
            #expect(result.withLock { $0 } == -ECONNREFUSED)
        }

        @Test func failedWriteFallsBackToStderrWithOneNotice() throws {
            let marker = "fallback-\(UInt64.random(in: 0...UInt64.max))"
            let event = LogEvent(
                level: .error, message: "\(marker)", metadata: nil, source: nil,
                file: "HiveKit/X.swift", function: "f()", line: 1)
            let error = SystemdError(function: "sd_journal_sendv", errno: ECONNREFUSED)
            let fallback = JournalFallback()
            let captured = Self.capturingStderr {
                fallback.write(event, metadata: ["module": "store"], identifier: "hived", error: error)
                fallback.write(event, metadata: ["module": "store"], identifier: "hived", error: error)
            }
            let lines = captured.split(separator: "\n")
            #expect(lines.filter { $0.hasSuffix("error [store] \(marker)") }.count == 2)
            #expect(lines.filter { $0.contains("journal unavailable") }.map(String.init) == ["hived: journal unavailable (\(error)); logging to stderr"])
        }

        @Test func journalTargetFallsBackWhenJournaldIsMissing() {
            #expect(HiveLogging.effective(.journal, journalAvailable: false) == .stderr)
            #expect(HiveLogging.effective(.journal, journalAvailable: true) == .journal)
            #expect(HiveLogging.effective(.stderr, journalAvailable: true) == .stderr)
            #expect(!DaemonLogHandler.journalAvailable(socketPath: "/nonexistent/journal/socket"))
        }

        /// Runs `body` with fd 2 pointed at a pipe; returns what was written there.
        static func capturingStderr(_ body: () -> Void) -> String {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { return "pipe failed: errno \(errno)" }
            let saved = dup(STDERR_FILENO)
            dup2(ends[1], STDERR_FILENO)
            close(ends[1])
            body()
            // Lines and entries are written by threads of their own: let them out first.
            HiveLogging.flush(until: MonotonicClock.nanoseconds() + 10_000_000_000)
            dup2(saved, STDERR_FILENO)
            close(saved)
            defer { close(ends[0]) }
            var output = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(ends[0], &buffer, buffer.count)
                if count <= 0 { break }
                output += buffer[..<count]
            }
            return String(decoding: output, as: UTF8.self)
        }
    }
}
