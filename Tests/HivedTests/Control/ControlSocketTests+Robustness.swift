import Foundation
import TestSupport
import Testing

extension ControlSocketTests {
    /// Nothing a client sends or fails to read can crash the daemon, slow event delivery or
    /// leak: garbage, oversize messages, a missing NUL, too many clients, a subscriber that
    /// never reads, and 10,000 connections. The raw clients block, so each runs on a thread
    /// of its own (``blocking(lowPriority:_:)``); the stress loops, like the daemon they stress
    /// (``ControlFixture/start(modules:control:extra:)``), run at a lower priority than the
    /// other tests in the process.
    @Suite struct RobustnessTests {
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
            let socket = fixture.socket
            let closed = try await blocking { () -> [Bool] in
                let oversize = [UInt8](repeating: UInt8(ascii: " "), count: (1 << 20) + 100)
                let deep = String(repeating: "[", count: 100_000)
                return [
                    try Self.closes(after: Array("not json at all".utf8) + [0], socket),
                    try Self.closes(after: Array("[1, 2, 3]".utf8) + [0], socket),
                    try Self.closes(after: Array(#"{"method": 42}"#.utf8) + [0], socket),
                    try Self.closes(after: [0xff, 0xfe, 0x00], socket),
                    try Self.closes(after: Array(#"{"method":"io.hivekit.Daemon.GetStatus"}"#.utf8), socket, shutDown: true),
                    try Self.closes(after: Array("{\"method\":\"io.hivekit.Daemon.GetStatus\",\"x\":\"".utf8) + oversize, socket),
                    try Self.closes(after: Array("{\"method\":\"x.Y\",\"parameters\":\(deep)".utf8) + [0], socket),
                ]
            }
            #expect(closed == Array(repeating: true, count: 7))
            // A call and its answer still work afterwards, and the daemon is unharmed.
            #expect(try await fixture.reply("io.hivekit.Daemon.GetStatus")["phase"] as? String == "running")
            #expect(fixture.hived.process.isRunning)
            try await fixture.stop()
        }

        @Test func atMostSixtyFourClientsAtOnce() async throws {
            let fixture = try await ControlFixture.start()
            let socket = fixture.socket
            let (extraServed, laterServed) = try await blocking { () -> (Bool, Bool) in
                var clients: [RawControlClient] = []
                for _ in 0..<64 {
                    let client = try RawControlClient(socket)
                    client.call("org.varlink.service.GetInfo")
                    _ = try client.reply()
                    clients.append(client)
                }
                let extra = try RawControlClient(socket)
                extra.call("org.varlink.service.GetInfo")
                let extraServed = !extra.isTurnedAway(because: "64 clients already connected")
                clients.removeLast()
                // Once one leaves, a new client is served (the daemon may take a moment to notice).
                let deadline = ContinuousClock.now + .seconds(10)
                while ContinuousClock.now < deadline {
                    let client = try RawControlClient(socket)
                    client.call("org.varlink.service.GetInfo")
                    if case .message = client.receive() { return (extraServed, true) }
                }
                return (extraServed, false)
            }
            #expect(!extraServed, "the 65th client was served")
            #expect(laterServed)
            try await fixture.stop()
        }

        @Test func aSubscriberThatStopsReadingIsDroppedAndDeliveryGoesOn() async throws {
            let modules = (0..<20).map { "m\($0)" }
            let fixture = try await ControlFixture.start(modules: modules)
            let (socket, hived) = (fixture.socket, fixture.hived)
            let (sent, elapsed, delivered, silentClosed) = try await blocking(lowPriority: true) { () -> (Int, Duration, Set<Int>, Bool) in
                let silent = try RawControlClient(socket)
                var size: Int32 = 4096
                setsockopt(silent.descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
                silent.call("io.hivekit.Daemon.Subscribe", more: true)
                let sender = try RawControlClient(socket)
                let start = ContinuousClock.now
                var sent = 0
                var delivered = Set<Int>()
                while !hived.stderr.contains("dropped the subscriber"), sent < 5000 {
                    sender.call("io.hivekit.Daemon.SendEvent", #"{"name":"flood"}"#)
                    delivered.insert(try sender.reply()["delivered"] as? Int ?? -1)
                    sent += 1
                }
                let elapsed = ContinuousClock.now - start
                // The dropped subscriber's connection is closed once what it was sent is read.
                while true {
                    switch silent.receive(timeout: .seconds(10)) {
                    case .closed: return (sent, elapsed, delivered, true)
                    case .timedOut: return (sent, elapsed, delivered, false)
                    case .message: continue
                    }
                }
            }
            #expect(fixture.hived.stderr.contains("dropped the subscriber"), "after \(sent) events")
            #expect(delivered == [modules.count + 2])
            #expect(elapsed < .seconds(60), "delivery went on at its own pace: \(sent) events in \(elapsed)")
            #expect(silentClosed, "the dropped subscriber's connection was closed")
            try await fixture.stop()
        }

        @Test func tenThousandConnectionsLeaveDescriptorsAndMemoryWhereTheyWere() async throws {
            let fixture = try await ControlFixture.start()
            let (socket, pid) = (fixture.socket, fixture.hived.pid)
            @Sendable func cycles(_ count: Int) throws {
                for index in 0..<count {
                    let client = try RawControlClient(socket)
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
            try await blocking(lowPriority: true) { try cycles(1000) }  // warm-up: allocator arenas, buffers
            // The daemon closes a connection when it sees the hang-up: measure once it closed all.
            try await fixture.waitUntilConnectionsClosed()
            let (fdsBefore, rssBefore) = (descriptors(), residentKiB())
            try await blocking(lowPriority: true) { try cycles(10_000) }
            try await fixture.waitUntilConnectionsClosed()
            // No more descriptors than before: the baseline may hold one the daemon opened for
            // a moment of its own (a soak saw 14 → 13), never 10,000 connections' worth.
            try? await waitUntil("hived's descriptors back to \(fdsBefore)", timeout: .seconds(10)) { descriptors() <= fdsBefore }
            let (fdsAfter, rssAfter) = (descriptors(), residentKiB())
            #expect(fdsAfter <= fdsBefore, "descriptors: \(fdsBefore) → \(fdsAfter)")
            #expect(rssAfter - rssBefore < 512, "VmRSS: \(rssBefore) KiB → \(rssAfter) KiB")
            try await fixture.stop()
        }
    }
}
