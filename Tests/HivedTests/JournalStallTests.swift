import Foundation
import TestSupport
import Testing

/// `log.target: journal` with a journald that stops reading: hived runs in a mount
/// namespace of its own (`unshare -m`) whose private `/run` holds the test's socket as
/// `/run/systemd/journal/socket`. Needs root; required on CI.
@Suite(.serialized) struct JournalStallTests {
    static let isCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false
    static let canRun = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")

    @Test(.enabled(if: canRun || isCI, "needs root and unshare(1) for a private /run"))
    func aJournalThatStopsReadingHoldsNeitherReloadsNorTheStop() async throws {
        try #require(Self.canRun, "CI requires this test: run it as root with unshare(1) installed")
        let directory = try TestDirectory()
        let events = directory.file("events")
        let journal = try FakeJournal(path: directory.file("journal.sock"))
        let path = try directory.write("hived.yaml", """
            budgets: {event: 1s, stop: 2s}
            log: {level: debug, target: journal}
            modules:
              - {name: a, type: probe, settings: {path: \(events)}}
            """)
        let script = """
            mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/journal && : > /run/systemd/journal/socket \
            && mount --bind "$0" /run/systemd/journal/socket && exec "$@"
            """
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, environment: ["HIVED_LOG_TARGET": "journal"],
            launcher: ["/usr/bin/unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, journal.path])
        try await hived.waitForReady()
        let first = try #require(journal.receive(), "journald got hived's first entry")
        #expect(first.contains("SYSLOG_IDENTIFIER=hived"), "\(first)")
        // From now on the fake journald reads nothing: its queue fills and sd_journal_sendv blocks.
        let notify = try #require(hived.notify)
        for count in 1...20 {
            hived.signal(SIGHUP)
            try await notify.waitForCount(count + 1, startingWith: "READY=1", timeout: .seconds(10))
        }
        let took = try await hived.timeExit(after: SIGTERM, timeout: .seconds(15))
        #expect(try await hived.exitStatus() == 0)
        #expect(took < .seconds(2), "\(took)")
        #expect(try ProbeFile(path: events).events.suffix(2) == ["a.terminate", "a.teardown"])
        #expect(notify.stateMessages.last?.hasPrefix("STOPPING=1") == true)
        var queued = 0
        while journal.receive(timeout: 0) != nil { queued += 1 }
        #expect(queued >= 5, "the journal socket filled up: \(queued) entries waiting")
    }
}

/// A datagram socket standing in for journald's `/run/systemd/journal/socket`.
final class FakeJournal {
    let path: String
    private let descriptor: Int32

    init(path: String) throws {
        self.path = path
        descriptor = try UnixAddress.boundDatagramSocket(path)
    }

    /// The next entry's text, waiting up to `timeout` seconds (0: only one already there).
    func receive(timeout: Int = 10) -> String? {
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = recv(self.descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    deinit { close(descriptor) }
}
