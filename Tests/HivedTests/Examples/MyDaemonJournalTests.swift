import Foundation
import TestSupport
import Testing

/// mydaemon's journal entries carry its own name: `log.target: journal` with the test's
/// socket as `/run/systemd/journal/socket` in a mount namespace of mydaemon's own, as
/// ``JournalStallTests`` does for hived. Needs root; required on CI.
@Suite(.enabled(
    if: ExampleBinary.isAvailable(product: "mydaemon"),
    "Examples/MyDaemon is not built (swift build --package-path Examples/MyDaemon; scripts/test builds it)"))
struct MyDaemonJournalTests {
    @Test(.enabled(if: JournalStallTests.canRun || JournalStallTests.isCI, "needs root and unshare(1) for a private /run"))
    func itsJournalEntriesAreIdentifiedByItsName() async throws {
        try #require(JournalStallTests.canRun, "CI requires this test: run it as root with unshare(1) installed")
        let directory = try TestDirectory()
        let journal = try FakeJournal(path: directory.file("journal.sock"))
        let config = try directory.write("my.yaml", """
            modules:
              - {name: store, type: store, level: basic, settings: {greeting: hi}}
              - {name: report, type: report}
            """)
        let script = """
            mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/journal && : > /run/systemd/journal/socket \
            && mount --bind "$0" /run/systemd/journal/socket && exec "$@"
            """
        let daemon = try HivedProcess(
            ["--config", config], in: directory, environment: ["MYDAEMON_LOG_TARGET": "journal"],
            executable: ExampleBinary.url(product: "mydaemon"),
            launcher: ["/usr/bin/unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, journal.path])
        try await daemon.waitForReady()
        var entries: [String] = []
        while !entries.contains(where: { $0.contains("MESSAGE=[report] ready: store holds 1 key; greeting 'hi'") }) {
            entries.append(try #require(journal.receive(), "the report's entry reached the journal: \(entries)"))
        }
        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0, "\(daemon.stderr)")
        for entry in entries {
            #expect(entry.contains("\nSYSLOG_IDENTIFIER=mydaemon\n"), "\(entry)")
        }
        let report = try #require(entries.last)
        #expect(report.contains("\nHIVE_MODULE=report\n"), "\(report)")
        #expect(daemon.stderr.isEmpty, "every line went to the journal: \(daemon.stderr)")
    }
}
