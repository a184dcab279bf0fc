import Foundation
import TestSupport
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
        #expect(took <= .seconds(1) + StopBudgetTests.pastBudget, "\(took)")
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

/// Output that stalls and then recovers: nothing that matters is lost, and what was lost
/// is said.
@Suite(.serialized) struct OutputRecoveryTests {
    @Test func aNotifyReceiverThatStallsThenRecoversGetsEveryStateInOrder() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let receiver = try HandReadNotifySocket(path: directory.file("stalling.sock"))
        let path = try directory.write("hived.yaml", """
            budgets: {event: 5s, stop: 20s}
            modules:
              - {name: a, type: probe, settings: {path: \(events)}}
            """)
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, notify: false, environment: ["NOTIFY_SOCKET": receiver.path])
        try await waitUntil("READY=1", detail: { "got \(receiver.messages)" }) {
            receiver.read()
            return receiver.states == ["READY=1"]
        }
        // The receiver stalls: its queue is full, so each notification from now on waits.
        let fillers = try receiver.fill()
        #expect(fillers > 0)
        hived.signal(SIGHUP)
        _ = try await ProbeFile.waitFor(events, "the reload") { $0.event == "reload" }
        hived.signal(SIGTERM)
        _ = try await ProbeFile.waitFor(events, "the teardown") { $0.event == "teardown" }
        #expect(receiver.states == ["READY=1"], "nothing got through the stalled receiver")
        // It recovers, well within the stop budget.
        try await waitUntil("STOPPING=1", detail: { "got \(receiver.messages)" }) {
            receiver.read()
            return receiver.states.contains("STOPPING=1")
        }
        #expect(try await hived.exitStatus() == 0, "every notification was taken before the stop budget ran out")
        receiver.read()
        #expect(receiver.fillersRead == fillers)
        #expect(receiver.states == ["READY=1", "RELOADING=1", "READY=1", "STOPPING=1"], "\(receiver.messages)")
    }

    @Test func linesDroppedWhileStderrIsNotDrainedAreCountedInAWarningOnceItDrains() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let pipe = Pipe()
        let reader = pipe.fileHandleForReading.fileDescriptor
        _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, 1031 /* F_SETPIPE_SZ */, 4096)
        // Lines of 60 KB: the pipe holds none, the queue (1 MiB) about 17.
        let path = try directory.write("hived.yaml", """
            signals: {SIGUSR1: "custom:tick"}
            modules:
              - {name: b, type: echo, settings: {message: \(String(repeating: "m", count: 60_000))}}
              - {name: a, type: probe, settings: {path: \(events)}}
            """)
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, standardError: pipe.fileHandleForWriting)
        try pipe.fileHandleForWriting.close()
        try await hived.waitForReady()
        // Each tick logs a line of 60 KB (b echoes it before a records it): 40 are more
        // than the queue holds.
        for count in 1...40 {
            hived.signal(SIGUSR1)
            _ = try await ProbeFile.waitFor(events, "tick \(count)", until: { file in
                file.lines.filter { $0.name == "tick" }.count == count
            })
        }
        // The collector drains the pipe again.
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let notice = #/\n(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) warning (\d{1,3}(?:,\d{3})*) log lines dropped \(stderr was not drained\)\n/#
        var found: Regex<(Substring, Substring, Substring)>.Match?
        try await waitUntil("the dropped-lines notice", detail: { "\(output.count) bytes read" }) {
            while true {
                let count = Glibc.read(reader, &buffer, buffer.count)
                guard count > 0 else { break }
                output += buffer[..<count]
            }
            found = String(decoding: output, as: UTF8.self).firstMatch(of: notice)
            return found != nil
        }
        let dropped = Int(found!.2.replacing(",", with: "")) ?? 0
        #expect(dropped > 0 && dropped < 40, "\(found!.0)")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }
}
