import Foundation
import Testing

/// Nothing hived writes can block it: a `NOTIFY_SOCKET` receiver or a stderr pipe that
/// stops reading holds up neither events nor the stop.
@Suite(.serialized) struct OutputStallTests {
    /// `net.unix.max_dgram_qlen`: how many datagrams a receiver that does not read holds
    /// before senders block.
    static var datagramQueueLength: Int {
        let text = (try? String(contentsOfFile: "/proc/sys/net/unix/max_dgram_qlen", encoding: .utf8)) ?? "512"
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 512
    }

    @Test func aNotifySocketNobodyReadsHoldsNeitherReloadsNorTheStop() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let socket = try SilentSocket(path: directory.file("silent.sock"))
        let path = try directory.write("hived.yaml", """
            budgets: {event: 1s, stop: 1s}
            modules:
              - {name: a, type: probe, settings: {path: \(events)}}
            """)
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, notify: false, environment: ["NOTIFY_SOCKET": socket.path])
        _ = try await ProbeFile.waitFor(events, "ready") { $0.event == "ready" }
        // Two datagrams per reload: more than the receiver's queue holds, so sd_notify blocks.
        let reloads = Self.datagramQueueLength / 2 + 5
        for count in 1...reloads {
            hived.signal(SIGHUP)
            _ = try await ProbeFile.waitFor(events, "reload \(count)", until: { file in
                file.modules(receiving: "reload").count == count
            })
        }
        let took = try await hived.timeExit(after: SIGTERM, timeout: .seconds(15))
        #expect(try await hived.exitStatus() == 75, "systemd never took STOPPING=1: the stop is not clean")
        #expect(took <= .milliseconds(1100) + StopBudgetTests.observation, "\(took)")
        #expect(try ProbeFile(path: events).events.suffix(2) == ["a.terminate", "a.teardown"])
        #expect(hived.stderr.contains("exceeded while stopping: writing to NOTIFY_SOCKET"), "\(hived.stderr)")
    }

    @Test func aStderrPipeNobodyDrainsHoldsNeitherReloadsNorTheStop() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let pipe = Pipe()
        // The smallest pipe the kernel allows (a page): a few log lines fill it.
        _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, 1031 /* F_SETPIPE_SZ */, 4096)
        let path = try directory.write("hived.yaml", """
            budgets: {event: 1s, stop: 2s}
            log: {level: debug}
            signals: {SIGUSR1: "custom:noise"}
            modules:
              - {name: a, type: probe, settings: {path: \(events)}}
              - {name: b, type: echo}
            """)
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, standardError: pipe.fileHandleForWriting)
        try pipe.fileHandleForWriting.close()
        try await hived.waitForReady()
        let notify = try #require(hived.notify)
        for count in 1...20 {
            hived.signal(SIGUSR1)
            hived.signal(SIGHUP)
            try await notify.waitForCount(count + 1, startingWith: "READY=1", timeout: .seconds(10))
        }
        var available = 0
        #expect(ioctl(pipe.fileHandleForReading.fileDescriptor, UInt(FIONREAD), &available) == 0)
        #expect(available > 4096 - 512, "the pipe is full (no room for another line): \(available) bytes")
        let took = try await hived.timeExit(after: SIGTERM, timeout: .seconds(15))
        #expect(try await hived.exitStatus() == 0)
        #expect(took < .seconds(2), "\(took)")
        #expect(try ProbeFile(path: events).events.suffix(2) == ["a.terminate", "a.teardown"])
        #expect(notify.stateMessages.last?.hasPrefix("STOPPING=1") == true)
    }
}

/// A datagram socket bound at `path` that never reads: a `NOTIFY_SOCKET` receiver that
/// stopped (a busy PID 1).
final class SilentSocket {
    let path: String
    private let descriptor: Int32

    init(path: String) throws {
        self.path = path
        descriptor = try UnixAddress.boundDatagramSocket(path)
    }

    deinit { close(descriptor) }
}
