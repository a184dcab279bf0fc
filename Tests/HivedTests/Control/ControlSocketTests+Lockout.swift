import Foundation
import TestSupport
import Testing

extension ControlSocketTests {
    /// No client can lock the others out, or lose its answer: a half-closed client gets its
    /// reply, idle and slow clients are closed after the idle time, `ctl reload` under
    /// `ExecReload=` reloads through `SIGHUP` while the socket is saturated, and a flood of
    /// refused peers is logged once per interval.
    @Suite struct LockoutTests {
        /// hived with probe `a` stalling 300 ms in `reload` and `custom:slow`, so a call is
        /// still under way when its client half-closes.
        static func startWithSlowHooks() async throws -> ControlFixture {
            let directory = try TestDirectory()
            let socket = directory.file("control")
            let path = try directory.write("hived.yaml", """
                budgets: {event: 5s, stop: 10s}
                control: {socket: \(socket)}
                modules:
                  - {name: a, type: probe, settings: {path: \(directory.file("events")), stall_on: {reload: 300ms, "custom:slow": 300ms}}}
                """)
            let hived = try HivedProcess(["run", "--config", path], in: directory)
            lowerPriority(of: hived.pid)
            try await hived.waitForReady()
            return ControlFixture(directory: directory, hived: hived, socket: socket, configPath: path)
        }

        @Test func aClientThatHalfClosesAfterReloadOrSendEventGetsItsReply() async throws {
            let fixture = try await Self.startWithSlowHooks()
            let socket = fixture.socket
            let answers = try await blocking { () -> [String] in
                var answers: [String] = []
                for _ in 0..<5 {
                    for (method, parameters) in [("Reload", "{}"), ("SendEvent", #"{"name":"slow"}"#)] {
                        let client = try RawControlClient(socket)
                        client.call("io.hivekit.Daemon.\(method)", parameters)
                        // The daemon reads the call at once; the hook takes 300 ms.
                        usleep(100_000)
                        // As socat and `nc -N` do once their input ends.
                        shutdown(client.descriptor, Int32(SHUT_WR))
                        switch client.receive() {
                        case .message(let object):
                            let parameters = object["parameters"] as? [String: Any] ?? [:]
                            answers.append(object["error"] as? String ?? (parameters["reloaded"] != nil ? "reloaded" : "delivered"))
                        case .closed: answers.append("closed without a reply")
                        case .timedOut: answers.append("no reply")
                        }
                    }
                }
                return answers
            }
            #expect(answers == Array(repeating: ["reloaded", "delivered"], count: 5).flatMap { $0 }, "\(answers)")
            try await fixture.stop()
        }

        /// 64 authorised clients that send a byte a second and never a whole call: while they
        /// hold every slot, ctl is told why and `ctl reload` under `ExecReload=` reloads by
        /// `SIGHUP`; within the idle time (10 s) they are closed, and ctl is served again.
        @Test func slowClientsAreClosedAfterTheIdleTimeAndReloadFallsBackToSIGHUPMeanwhile() async throws {
            let fixture = try await ControlFixture.start()
            let (socket, hived) = (fixture.socket, fixture.hived)
            let notify = try #require(hived.notify)
            let start = ContinuousClock.now
            let slow = Task { try await blocking { () -> (closed: Int, after: Duration) in
                let clients = try (0..<64).map { _ in try RawControlClient(socket) }
                var open = Set(clients.indices)
                let deadline = ContinuousClock.now + .seconds(30)
                var round = 0
                while !open.isEmpty, ContinuousClock.now < deadline {
                    for index in open.sorted() {
                        // A byte a second, never a whole call; a closed connection is seen
                        // within an eighth of a second.
                        if round % 8 == 0, !clients[index].write([UInt8(ascii: " ")]) {
                            open.remove(index)
                            continue
                        }
                        if case .closed = clients[index].receive(timeout: .milliseconds(1)) { open.remove(index) }
                    }
                    round += 1
                    usleep(125_000)
                }
                return (64 - open.count, ContinuousClock.now - start)
            } }
            try await waitUntil("hived to hold the 64 slow clients", detail: { "\(fixture.openConnections) open" }) {
                fixture.openConnections >= 64
            }

            let status = try await fixture.ctl("status")
            #expect(status.status == 69, "\(status)")
            #expect(status.stderr.contains("the daemon turned the connection away: 64 clients already connected"), "\(status.stderr)")

            let before = notify.messages.count
            let reload = try await CtlTests.runCtl(["reload", "--socket", socket], environment: ["MAINPID": "\(hived.pid)"])
            #expect(reload.status == 0, "\(reload)")
            #expect(reload.stderr.contains("the control socket turned the call away"), "\(reload.stderr)")
            #expect(reload.stderr.contains("sent SIGHUP to pid \(hived.pid) instead"), "\(reload.stderr)")
            try await hived.waitForReady(after: before)
            #expect(notify.stateMessages.contains { $0.hasPrefix("RELOADING=1") })

            let (closed, after) = try await slow.value
            #expect(closed == 64, "slow clients closed by hived")
            #expect(after < .seconds(15), "closed after \(after); the idle time is 10 s")
            let served = try await fixture.ctl("status")
            #expect(served.status == 0, "\(served.stderr)")
            try await fixture.stop()
            let lines = hived.stderr.split(separator: "\n").filter { $0.contains("no complete call within 10 s") }
            #expect((1...2).contains(lines.count), "one message for the 64, then one per 10 s: \(lines)")
        }

        @Test(.enabled(if: getuid() == 0, "needs root to run a client as nobody"))
        func aFloodOfRefusedPeersIsLoggedOncePerIntervalWithACount() async throws {
            let fixture = try await ControlFixture.start()
            PeerTests.openUp(fixture, socketMode: 0o666)
            let flood = """
                import socket, sys
                for _ in range(500):
                    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    s.connect(sys.argv[1])
                    s.close()
                """
            let result = try await ExampleCommand.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                PeerIdentity.nobody.setprivArguments + ["--", "/usr/bin/python3", "-c", flood, fixture.socket])
            #expect(result.status == 0, "\(result.stderr)")
            let permission = #"hive_control_refused_total{reason="permission"}"#
            // Counted as each is seen; the last ones may still be on their way.
            var counted: Int?
            for _ in 0..<100 where counted != 500 {
                counted = try await RefusalTests.value(of: permission, in: fixture)
                if counted != 500 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(counted == 500)
            try await fixture.stop()
            let lines = fixture.hived.stderr.split(separator: "\n").filter { $0.contains("control socket: refused uid 65534") }
            #expect((1...2).contains(lines.count), "\(lines.count) lines for 500 refused peers")
            #expect(lines.dropFirst().allSatisfy { $0.contains("more refused since the last message") }, "\(lines)")
        }
    }
}
