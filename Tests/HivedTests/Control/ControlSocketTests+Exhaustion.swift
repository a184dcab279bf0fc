import Foundation
import TestSupport
import Testing

extension ControlSocketTests {
    /// hived out of file descriptors, as an `echo-server`'s clients can make it: no loop
    /// polls a listener that stays readable, the log says so a few times (not 200,000 a
    /// second), a control client is told why, a reload and a hook that fail say it is
    /// descriptors, and everything resumes by itself once the clients leave.
    @Suite struct ExhaustionTests {
        /// hived's descriptor limit (`prlimit --nofile`).
        static let limit = 64

        @Test func outOfDescriptorsHivedNeitherSpinsNorFloodsTheLogSaysWhyAndResumes() async throws {
            let directory = try TestDirectory()
            let (socket, echo, events) = (directory.file("control"), directory.file("echo"), directory.file("events"))
            let path = try directory.write("hived.yaml", """
                budgets: {event: 5s, stop: 10s}
                control: {socket: \(socket)}
                signals: {SIGUSR1: "custom:mark"}
                modules:
                  - {name: a, type: probe, settings: {path: \(events)}}
                  - {name: echo, type: echo-server, settings: {listen: \(echo)}}
                """)
            let hived = try HivedProcess(
                ["run", "--config", path], in: directory, launcher: ["/usr/bin/prlimit", "--nofile=\(Self.limit):\(Self.limit)"])
            lowerPriority(of: hived.pid)
            try await hived.waitForReady()
            try await hived.waitForStderr(containing: "echoing lines on")
            // Once `ready` was delivered (the probe opens its file for each event it records),
            // hived holds no descriptor for a moment only: the count below is what it keeps.
            _ = try await ProbeFile.waitFor(events, "a.ready") { $0.event == "ready" }
            let fixture = ControlFixture(directory: directory, hived: hived, socket: socket, configPath: path)
            let usage = ProcessUsage(pid: hived.pid)

            // Echo clients, each accepted before the next, until hived holds every descriptor
            // its limit allows (none waits in the echo listener's backlog yet).
            var clients: [Int32] = []
            while usage.descriptors < Self.limit, clients.count < 2 * Self.limit {
                let before = usage.descriptors
                clients.append(try UnixAddress.connectedStreamSocket(echo))
                try? await waitUntil("the echo-server to accept", timeout: .seconds(5)) { usage.descriptors > before }
            }
            #expect(usage.descriptors == Self.limit, "\(clients.count) echo clients")
            // One more waits in the echo listener's backlog: the echo-server's failing accept
            // shows hived is out of descriptors now, not only when they were counted.
            let backlogged = try UnixAddress.connectedStreamSocket(echo)
            try await hived.waitForStderr(containing: "[echo] cannot accept a client")
            let linesBefore = hived.stderr.split(separator: "\n").count

            // A control client is told why at once, rather than left waiting.
            let toldWhy = try await blocking { () -> Bool in
                let client = try RawControlClient(socket)
                client.call("io.hivekit.Daemon.GetStatus")
                return client.isTurnedAway(because: "out of file descriptors")
            }
            #expect(toldWhy, "no Unavailable reply out of descriptors")

            // With an echo client and a control client waiting in the listeners' backlogs,
            // hived stays under a fifth of a core.
            let waiting = [try UnixAddress.connectedStreamSocket(socket)]
            let cpu = try await usage.cpuTime(over: .seconds(3))
            #expect(cpu < .milliseconds(600), "hived used \(cpu) of CPU in 3 s out of descriptors")

            // A reload and a hook that fail for want of descriptors say so.
            hived.signal(SIGHUP)
            try await hived.waitForStderr(
                containing: "cannot read configuration file: Too many open files: the process is out of file descriptors")
            hived.signal(SIGUSR1)
            try await hived.waitForStderr(containing: "Too many open files (the process is out of file descriptors")

            // Once the clients leave, both listeners serve again by themselves: the echo-server
            // accepts the client still waiting in its backlog (kept open until then, so that
            // there is one to accept).
            (clients + waiting).forEach { close($0) }
            try await waitUntil("hived to close the echo clients' connections", timeout: .seconds(20)) {
                usage.descriptors < Self.limit - 8
            }
            let status = try await fixture.ctl("status")
            #expect(status.status == 0, "\(status.stderr)")
            try await hived.waitForStderr(containing: "control socket: accepting connections again")
            // A new echo client is served: the echo listener is polled again.
            let fresh = try LineSocket.connect(to: echo)
            let echoed = try await blocking { LineSocket.echo("back", on: fresh) }
            #expect(echoed == "back")
            close(fresh)
            try await hived.waitForStderr(containing: "accepting clients again")
            close(backlogged)
            let lines = hived.stderr.split(separator: "\n")
            #expect(lines.count - linesBefore < 100, "\(lines.count - linesBefore) log lines out of descriptors")
            #expect(lines.count { $0.contains("cannot accept") } <= 4, "\(lines.filter { $0.contains("cannot accept") })")
            try await fixture.stop()
        }
    }
}
