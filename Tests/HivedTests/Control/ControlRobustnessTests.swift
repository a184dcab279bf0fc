import Foundation
import Testing

/// Nothing a client sends or fails to read can crash the daemon, slow event delivery or
/// leak: garbage, oversize messages, a missing NUL, too many clients, a subscriber that
/// never reads, and 10,000 connections.
@Suite(.serialized) struct ControlRobustnessTests {
    /// Whether the daemon closes the connection after `bytes` (then shuts down writing).
    static func closes(after bytes: [UInt8], _ socket: String, shutDown: Bool = false) throws -> Bool {
        let client = try RawControlClient(socket)
        client.write(bytes)
        if shutDown { Foundation.shutdown(client.descriptor, Int32(SHUT_WR)) }
        if case .closed = client.receive() { return true }
        return false
    }

    @Test func garbageMissingTerminatorsAndOversizeMessagesCloseTheConnection() async throws {
        let fixture = try await ControlFixture.start()
        #expect(try Self.closes(after: Array("not json at all".utf8) + [0], fixture.socket))
        #expect(try Self.closes(after: Array("[1, 2, 3]".utf8) + [0], fixture.socket))
        #expect(try Self.closes(after: Array(#"{"method": 42}"#.utf8) + [0], fixture.socket))
        #expect(try Self.closes(after: [0xff, 0xfe, 0x00], fixture.socket))
        #expect(try Self.closes(after: Array(#"{"method":"io.hivekit.Daemon.GetStatus"}"#.utf8), fixture.socket, shutDown: true))
        let oversize = [UInt8](repeating: UInt8(ascii: " "), count: (1 << 20) + 100)
        #expect(try Self.closes(after: Array("{\"method\":\"io.hivekit.Daemon.GetStatus\",\"x\":\"".utf8) + oversize, fixture.socket))
        let deep = String(repeating: "[", count: 100_000)
        #expect(try Self.closes(after: Array("{\"method\":\"x.Y\",\"parameters\":\(deep)".utf8) + [0], fixture.socket))
        // A call and its answer still work afterwards, and the daemon is unharmed.
        #expect(try await fixture.reply("io.hivekit.Daemon.GetStatus")["phase"] as? String == "running")
        #expect(fixture.hived.process.isRunning)
        try await fixture.stop()
    }

    @Test func atMostSixtyFourClientsAtOnce() async throws {
        let fixture = try await ControlFixture.start()
        var clients: [RawControlClient] = []
        for _ in 0..<64 {
            let client = try RawControlClient(fixture.socket)
            client.call("org.varlink.service.GetInfo")
            _ = try client.reply()
            clients.append(client)
        }
        let extra = try RawControlClient(fixture.socket)
        extra.call("org.varlink.service.GetInfo")
        if case .closed = extra.receive() {} else { Issue.record("the 65th client was served") }
        clients.removeLast()
        // Once one leaves, a new client is served (the daemon may take a moment to notice).
        let deadline = ContinuousClock.now + .seconds(10)
        var served = false
        while !served, ContinuousClock.now < deadline {
            let client = try RawControlClient(fixture.socket)
            client.call("org.varlink.service.GetInfo")
            if case .message = client.receive() { served = true }
        }
        #expect(served)
        try await fixture.stop()
    }

    @Test func aSubscriberThatStopsReadingIsDroppedAndDeliveryGoesOn() async throws {
        let modules = (0..<20).map { "m\($0)" }
        let fixture = try await ControlFixture.start(modules: modules)
        let silent = try RawControlClient(fixture.socket)
        var size: Int32 = 4096
        setsockopt(silent.descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        silent.call("io.hivekit.Daemon.Subscribe", more: true)
        let sender = try RawControlClient(fixture.socket)
        let start = ContinuousClock.now
        var sent = 0
        while !fixture.hived.stderr.contains("dropped the subscriber"), sent < 5000 {
            sender.call("io.hivekit.Daemon.SendEvent", #"{"name":"flood"}"#)
            let reply: [String: Any]
            do { reply = try sender.reply() } catch { throw TestFailure("event \(sent): \(error); hived: \(fixture.hived.stderr.suffix(2000))") }
            #expect(reply["delivered"] as? Int == modules.count + 2)
            sent += 1
        }
        let elapsed = ContinuousClock.now - start
        #expect(fixture.hived.stderr.contains("dropped the subscriber"), "after \(sent) events")
        #expect(elapsed < .seconds(60), "delivery went on at its own pace: \(sent) events in \(elapsed)")
        // The dropped subscriber's connection is closed once what it was sent is read.
        var closed = false
        while !closed {
            switch silent.receive(timeout: .seconds(10)) {
            case .closed: closed = true
            case .timedOut: Issue.record("the dropped subscriber was not closed"); closed = true
            case .message: continue
            }
        }
        try await fixture.stop()
    }

    @Test func tenThousandConnectionsLeaveDescriptorsAndMemoryWhereTheyWere() async throws {
        let fixture = try await ControlFixture.start()
        let pid = fixture.hived.pid
        func cycles(_ count: Int) throws {
            for index in 0..<count {
                let client = try RawControlClient(fixture.socket)
                if index % 10 == 0 {
                    client.call("io.hivekit.Daemon.GetStatus")
                    _ = try client.reply()
                }
            }
        }
        func descriptors() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1 }
        func residentKiB() -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
        }
        try cycles(1000)  // warm-up: allocator arenas, the socket thread's buffers
        // The daemon closes a connection when it sees the hang-up; give it the moment.
        try await Task.sleep(for: .milliseconds(200))
        let (fdsBefore, rssBefore) = (descriptors(), residentKiB())
        try cycles(10_000)
        try await Task.sleep(for: .milliseconds(200))
        var fdsAfter = descriptors()
        let deadline = ContinuousClock.now + .seconds(10)
        while fdsAfter != fdsBefore, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            fdsAfter = descriptors()
        }
        let rssAfter = residentKiB()
        #expect(fdsAfter == fdsBefore, "descriptors: \(fdsBefore) → \(fdsAfter)")
        #expect(rssAfter - rssBefore < 512, "VmRSS: \(rssBefore) KiB → \(rssAfter) KiB")
        try await fixture.stop()
    }
}
