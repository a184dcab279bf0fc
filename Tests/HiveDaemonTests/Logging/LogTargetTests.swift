import Glibc
@testable import HiveDaemon
import HiveKit
import Testing

@Suite struct LogTargetTests {
    @Test func parsesConfigNames() {
        #expect(LogTarget(rawValue: "auto") == .auto)
        #expect(LogTarget(rawValue: "journal") == .journal)
        #expect(LogTarget(rawValue: "stderr") == .stderr)
        #expect(LogTarget(rawValue: "syslog") == nil)
    }

    @Test func parsesJournalStream() {
        #expect(FileIdentity(parsing: "8:12345") == FileIdentity(device: 8, inode: 12345))
        #expect(FileIdentity(parsing: "8:") == nil)
        #expect(FileIdentity(parsing: "8:1:2") == nil)
        #expect(FileIdentity(parsing: "-1:2") == nil)
        #expect(FileIdentity(device: 8, inode: 12345).description == "8:12345")
    }
}

extension ProcessEnvironmentSuite {
    /// Tests that read fd 2 (or the environment): in the serialized parent suite, so the
    /// tests that point fd 2 elsewhere (``JournalWriteTests``) never run beside them.
    @Suite struct LogTargetEnvironmentTests {
        private func stderrIdentity() throws -> FileIdentity {
            try #require(FileIdentity(descriptor: STDERR_FILENO))
        }

        @Test func autoIsJournalWhenJournalStreamIsOurStderr() throws {
            let environment = SystemdEnvironment(journalStream: try stderrIdentity().description)
            #expect(environment.stderrIsJournal())
            #expect(LogTarget.auto.resolved(in: environment) == .journal)
        }

        @Test func autoIsStderrWhenJournalStreamNamesSomethingElse() throws {
            let identity = try stderrIdentity()
            let other = FileIdentity(device: identity.device, inode: identity.inode &+ 1)
            #expect(LogTarget.auto.resolved(in: SystemdEnvironment(journalStream: other.description)) == .stderr)
            #expect(LogTarget.auto.resolved(in: SystemdEnvironment(journalStream: "garbage")) == .stderr)
            #expect(LogTarget.auto.resolved(in: SystemdEnvironment()) == .stderr)
        }

        @Test func explicitTargetsStayAsTheyAre() throws {
            let journalEnvironment = SystemdEnvironment(journalStream: try stderrIdentity().description)
            #expect(LogTarget.stderr.resolved(in: journalEnvironment) == .stderr)
            #expect(LogTarget.journal.resolved(in: SystemdEnvironment()) == .journal)
        }

        @Test func comparesTheGivenDescriptor() throws {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            defer { close(ends[0]); close(ends[1]) }
            let pipeIdentity = try #require(FileIdentity(descriptor: ends[1]))
            let environment = SystemdEnvironment(journalStream: pipeIdentity.description)
            #expect(LogTarget.auto.resolved(in: environment, descriptor: ends[1]) == .journal)
            #expect(LogTarget.auto.resolved(in: environment, descriptor: STDERR_FILENO) == .stderr)
        }

        @Test func autoFollowsLiveJournalStreamVariable() throws {
            var info = stat()
            #expect(fstat(STDERR_FILENO, &info) == 0)
            let matching = "\(info.st_dev):\(info.st_ino)"
            let mismatching = "\(info.st_dev):\(info.st_ino &+ 1)"
            let onJournal = try ProcessEnvironmentSuite.with(["JOURNAL_STREAM": matching]) {
                LogTarget.auto.resolved(in: .capture())
            }
            let offJournal = try ProcessEnvironmentSuite.with(["JOURNAL_STREAM": mismatching]) {
                LogTarget.auto.resolved(in: .capture())
            }
            #expect(onJournal == .journal)
            #expect(offJournal == .stderr)
        }
    }
}
