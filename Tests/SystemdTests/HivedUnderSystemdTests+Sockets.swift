import Foundation
import TestSupport
import Testing

extension HivedUnderSystemdTests {
    /// A configuration with one echo-server (`settings`) and a probe, so that removing the
    /// echo-server never leaves the file empty of modules.
    static func echoConfig(_ settings: String?) -> String {
        config(
            """
              - name: witness
                type: probe
                settings: {path: /var/lib/hived/witness.jsonl}
            """ + (settings.map {
                """

                  - name: echo
                    type: echo-server
                    settings: \($0)
                """
            } ?? ""))
    }

    @Test("socket activation: with hived stopped, a client connects to hived.socket and the line comes back", arguments: SystemdRelease.selected)
    func socketActivationStartsHived(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await hived.prepare(config: Self.echoConfig("{socket: echo}"))
        try await withSocketUnit(hived) { port in
            #expect(try await hived.property("ActiveState") == "inactive", "hived waits for its first client")
            let client = try LineSocket.connect(port: port).get()
            defer { close(client) }
            #expect(LineSocket.echo("wake up", on: client) == "wake up")
            // The echo-server serves from init on, so the answer may come before READY=1.
            #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try await hived.property("ActiveState") == "active" })
            #expect(LineSocket.echo("again", on: client) == "again")

            let invocation = try await hived.property("InvocationID")
            let journal = try await hived.container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
            #expect(journal.contains("received 1 descriptor from systemd: 'echo' (fd 3)"), "\(journal)")
            #expect(journal.contains { $0.hasPrefix("[echo] init: echoing lines on 127.0.0.1:\(port) (socket activation") }, "\(journal)")
            let verify = try await hived.container.exec(["systemd-analyze", "verify", "hived.socket"])
            #expect(verify.status == 0 && verify.stdout.isEmpty && verify.stderr.isEmpty, "\(verify)")
        }
    }

    @Test("systemctl restart refuses no connection: 200 connect-and-send cycles across it all succeed",
          arguments: SystemdRelease.selected, [false, true])
    func restartRefusesNoConnection(release: SystemdRelease, activated: Bool) async throws {
        let hived = try hived(release)
        if activated {
            try await hived.prepare(config: Self.echoConfig("{socket: echo}"))
            try await withSocketUnit(hived) { port in
                #expect(try await hived.systemctl("start").status == 0)
                try await restartUnderLoad(hived, port: port, restoring: nil)
            }
        } else {
            try await restartUnderLoad(hived, port: try await startEchoServer(hived), restoring: "'echo/listener'")
        }
    }

    /// Runs `systemctl restart` while a client loop connects and sends a line at least 200
    /// times; every cycle must be answered, some of them while hived restarts.
    private func restartUnderLoad(_ hived: HivedFixture, port: UInt16, restoring: String?) async throws {
        let pid = try await hived.property("MainPID")
        let loop = EchoLoop()
        let running = Task { await loop.run(port: port, minimum: 200) }
        #expect(await eventually(timeout: .seconds(10), every: .systemctl) { loop.cycles >= 20 }, "the loop got going")
        let restartStart = ContinuousClock.now
        let restart = try await hived.systemctl("restart")
        let restartEnd = ContinuousClock.now
        loop.finish()
        let outcome = await running.value

        #expect(outcome.failures.isEmpty, "\(outcome.failures.count) of \(outcome.cycles) cycles failed: \(outcome.failures.prefix(5))")
        #expect(outcome.cycles >= 200)
        let during = outcome.overlapping(restartStart, restartEnd)
        #expect(during > 0, "no cycle ran while hived restarted (\(restartEnd - restartStart))")
        let restarted = { @Sendable () async throws in
            #expect(restart.status == 0, "after \(restartEnd - restartStart): \(restart)")
            let now = try await hived.property("MainPID")
            #expect(now != pid, "a new hived serves now")
        }
        if hived.release.isModern {
            // Known defect, systemd 257 only: hived stores every connection (FDSTORE=1, then
            // FDSTOREREMOVE=1 when it closes), and 257's PID 1 spends about six times 252's
            // CPU on each such message (about 60% of a core under this loop, against 15%).
            // hived's notify queue then holds a duplicate of each descriptor it waits to send,
            // up to its 1,024-descriptor limit (accept fails with EMFILE meanwhile), and PID 1
            // answers systemctl only once it drained that queue: up to 40 s, past systemctl's
            // 25 s D-Bus timeout. No cycle fails meanwhile.
            await withKnownIssue("systemd 257 answers systemctl restart only after draining hived's per-connection FDSTORE messages",
                                 isIntermittent: true) { try await restarted() }
            // Whatever systemctl saw, the restart ends and a new hived serves.
            let settled = try await eventually(timeout: .seconds(90), every: .systemctl) {
                let state = try await hived.container.properties(HivedFixture.unit, ["ActiveState", "MainPID"])
                return state["ActiveState"] == "active" && state["MainPID"] != pid
            }
            #expect(settled, "the restart ended with a new hived")
        } else {
            try await restarted()
        }
        if let restoring {
            let invocation = try await hived.property("InvocationID")
            let journal = try await hived.container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
            #expect(journal.contains { $0.contains(restoring) }, "the listener came back from the store: \(journal)")
        }
    }

    @Test("systemctl restart cuts no connection: a line sent after it on the same connection comes back",
          arguments: SystemdRelease.selected, [false, true])
    func restartKeepsConnections(release: SystemdRelease, activated: Bool) async throws {
        let hived = try hived(release)
        let body: (UInt16) async throws -> Void = { port in
            let client = try LineSocket.connect(port: port).get()
            defer { close(client) }
            #expect(LineSocket.echo("before", on: client) == "before")
            let pid = try await hived.property("MainPID")
            let restart = try await hived.systemctl("restart")
            #expect(restart.status == 0, "\(restart)")
            #expect(try await hived.property("MainPID") != pid)
            #expect(LineSocket.echo("after, same connection", on: client) == "after, same connection")
            let invocation = try await hived.property("InvocationID")
            let journal = try await hived.container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
            #expect(journal.contains { $0.contains("resumed 1 connection from before the restart") }, "\(journal)")
        }
        if activated {
            try await hived.prepare(config: Self.echoConfig("{socket: echo}"))
            try await withSocketUnit(hived) { port in
                #expect(try await hived.systemctl("start").status == 0)
                try await body(port)
            }
        } else {
            try await body(try await startEchoServer(hived))
        }
    }

    @Test("a reload that removes the echo-server closes its connections and empties its part of the store", arguments: SystemdRelease.selected)
    func reloadRemovalClearsTheStore(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let port = try await startEchoServer(hived)
        let client = try LineSocket.connect(port: port).get()
        defer { close(client) }
        #expect(LineSocket.echo("stored", on: client) == "stored")
        // A restart shows what the store holds: the listener and this connection.
        #expect(try await hived.systemctl("restart").status == 0)
        let restored = try await hived.container.journal(invocation: try await hived.property("InvocationID"))
            .compactMap { $0["MESSAGE"] }.first { $0.hasPrefix("received ") } ?? ""
        #expect(restored.contains("'echo/listener'") && restored.contains("'echo/connection."), "\(restored)")
        #expect(LineSocket.echo("still here", on: client) == "still here")

        try hived.writeConfig(Self.echoConfig(nil))
        #expect(try await hived.systemctl("reload").status == 0)
        #expect(LineSocket.isClosedByPeer(client), "the removed module's connection is closed for good")
        #expect(await eventually(timeout: .seconds(10), every: .systemctl) { Self.isRefused(port) }, "and its listener too")

        #expect(try await hived.systemctl("restart").status == 0)
        let invocation = try await hived.property("InvocationID")
        let journal = try await hived.container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
        #expect(!journal.contains { $0.contains("echo/") || $0.hasPrefix("received ") }, "nothing of it came back: \(journal)")
        #expect(Self.isRefused(port))
        #expect(try hived.steps("witness").contains("witness.reload"))
    }

    // MARK: Helpers

    /// Whether connecting to 127.0.0.1:`port` is refused.
    static func isRefused(_ port: UInt16) -> Bool {
        switch LineSocket.connect(port: port) {
        case .failure(let error): return error.code == .ECONNREFUSED
        case .success(let fd):
            close(fd)
            return false
        }
    }

    /// Starts hived with an echo-server listening (`listen:`) on a free loopback port, and
    /// returns the port. A port taken by someone else meanwhile is retried with another.
    func startEchoServer(_ hived: HivedFixture) async throws -> UInt16 {
        var last: CommandResult?
        for _ in 0..<3 {
            let port = try LineSocket.freePort()
            try await hived.prepare(config: Self.echoConfig("{listen: 127.0.0.1:\(port)}"))
            let start = try await hived.systemctl("start")
            if start.status == 0 { return port }
            last = start
        }
        throw TestFailure("hived with an echo-server did not start: \(last.map { "\($0)" } ?? "")")
    }

    /// Runs `body` with hived.socket listening on a free loopback port (a drop-in replaces
    /// its ListenStream=), then stops it and removes the drop-in, whatever happened.
    func withSocketUnit(_ hived: HivedFixture, _ body: (UInt16) async throws -> Void) async throws {
        let container = hived.container
        let dropIn = "/etc/systemd/system/hived.socket.d/suite.conf"
        var port: UInt16 = 0
        var started: CommandResult?
        for _ in 0..<3 {
            port = try LineSocket.freePort()
            try container.write("[Socket]\nListenStream=\nListenStream=127.0.0.1:\(port)\n", to: dropIn)
            try await container.check(["systemctl", "daemon-reload"])
            started = try await container.systemctl("start", "hived.socket")
            if started?.status == 0 { break }
            try await container.systemctl("reset-failed", "hived.socket")
        }
        var failure: (any Error)?
        if started?.status == 0 {
            do { try await body(port) } catch { failure = error }
        } else {
            failure = TestFailure("hived.socket did not start: \(started.map { "\($0)" } ?? "")")
        }
        try await container.systemctl("stop", "hived.socket", HivedFixture.unit)
        try await container.systemctl("reset-failed", "hived.socket")
        try await container.check(["rm", "-f", dropIn])
        try await container.check(["systemctl", "daemon-reload"])
        if let failure { throw failure }
    }
}
