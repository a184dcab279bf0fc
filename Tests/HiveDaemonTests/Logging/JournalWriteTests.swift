import Foundation
import Glibc
@testable import HiveDaemon
import HiveKit
import Logging
import Testing

extension ProcessEnvironmentSuite {
    /// Real writes through `sd_journal_sendv`, and the stderr fallback; fd 2 is redirected,
    /// hence the serialized parent suite.
    @Suite struct JournalWriteTests {
        @Test func realWriteReturnsAndWritesNothingElse() throws {
            let marker = "journal-write-test-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            var result: Int32 = -1
            let captured = try Self.capturingStderr {
                // Where no journald runs, libsystemd drops the entry and still returns 0.
                result = SystemdCalls.journalSend(["MESSAGE=\(marker)", "SYSLOG_IDENTIFIER=hived-test"])
                var logger = Logger(label: "hived") { _ in JournalLogHandler(identifier: "hived", level: .info) }
                logger[metadataKey: "module"] = "probe"
                logger.info("\(marker)", metadata: ["event": "init"])
            }
            #expect(result == 0 || result == -ECONNREFUSED || result == -EAGAIN)
            if result == 0 { #expect(!captured.contains(marker)) }
        }

        @Test func failedWriteFallsBackToStderrWithOneNotice() throws {
            let marker = "fallback-\(UInt64.random(in: 0...UInt64.max))"
            let event = LogEvent(
                level: .error, message: "\(marker)", metadata: nil, source: nil,
                file: "HiveKit/X.swift", function: "f()", line: 1)
            let error = SystemdError(function: "sd_journal_sendv", errno: ECONNREFUSED)
            let captured = try Self.capturingStderr {
                JournalFallback.write(event, metadata: ["module": "store"], identifier: "hived", error: error)
                JournalFallback.write(event, metadata: ["module": "store"], identifier: "hived", error: error)
            }
            let lines = captured.split(separator: "\n")
            #expect(lines.filter { $0.hasSuffix("error [store] \(marker)") }.count == 2)
            #expect(lines.filter { $0.contains("journal unavailable") }.count <= 1)
        }

        @Test func journalTargetFallsBackWhenJournaldIsMissing() {
            #expect(HiveLogging.effective(.journal, journalAvailable: false) == .stderr)
            #expect(HiveLogging.effective(.journal, journalAvailable: true) == .journal)
            #expect(HiveLogging.effective(.stderr, journalAvailable: true) == .stderr)
            #expect(!JournalLogHandler.journalAvailable(socketPath: "/nonexistent/journal/socket"))
        }

        /// Runs `body` with fd 2 pointed at a pipe; returns what was written there.
        static func capturingStderr(_ body: () -> Void) throws -> String {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.EIO) }
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
