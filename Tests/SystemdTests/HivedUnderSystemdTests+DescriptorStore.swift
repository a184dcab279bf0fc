import Foundation
import TestSupport
import Testing

/// What systemd 252 and 257 do with the descriptor store beyond `systemctl restart` (tested
/// with the sockets): a restart by `Restart=` keeps it, a stop discards it (unless 257's
/// `FileDescriptorStorePreserve=yes`: HivedUnderSystemdTests+DescriptorStorePreserve.swift),
/// and a unit without a store makes the echo-server say so and serve on.
extension HivedUnderSystemdTests {
    @Test("a restart by Restart= after SIGKILL keeps the store: a connection open before echoes after", arguments: SystemdRelease.selected)
    func restartAfterKillKeepsConnections(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let port = try await startEchoServer(hived)
        let client = try LineSocket.connect(port: port).get()
        defer { close(client) }
        #expect(LineSocket.echo("before the kill", on: client) == "before the kill")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try await hived.property("NFileDescriptorStore") == "2" },
                "the listener and the connection are in the store")
        let before = try await hived.container.properties(HivedFixture.unit, ["MainPID", "NRestarts"])

        #expect(try await hived.systemctl("kill", "-s", "KILL").status == 0)
        var state: [String: String] = [:]
        let restarted = try await eventually(timeout: .seconds(30), every: .systemctl) {
            state = try await hived.container.properties(HivedFixture.unit, ["MainPID", "ActiveState", "NRestarts"])
            return state["ActiveState"] == "active" && state["MainPID"] != before["MainPID"] && state["MainPID"] != "0"
        }
        #expect(restarted, "Restart=on-failure started hived again: \(state)")
        #expect(Int(state["NRestarts"] ?? "") == (Int(before["NRestarts"] ?? "") ?? 0) + 1, "\(before) → \(state)")
        #expect(LineSocket.echo("after the restart by Restart=", on: client) == "after the restart by Restart=")
        let invocation = try await hived.property("InvocationID")
        let journal = try await hived.container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
        #expect(journal.contains { $0.contains("listener restored from the descriptor store; resumed 1 connection") },
                "\(journal)")
    }

    @Test("systemctl stop, then start: the store is discarded, the connection is closed and nothing comes back", arguments: SystemdRelease.selected)
    func stopDiscardsTheStore(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let port = try await startEchoServer(hived)
        let client = try LineSocket.connect(port: port).get()
        defer { close(client) }
        #expect(LineSocket.echo("before the stop", on: client) == "before the stop")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try await hived.property("NFileDescriptorStore") == "2" })

        #expect(try await hived.systemctl("stop").status == 0)
        #expect(LineSocket.isClosedByPeer(client), "neither hived nor the store holds the connection any more")
        #expect(try await hived.property("NFileDescriptorStore") == "0")
        #expect(try await hived.systemctl("start").status == 0)
        let invocation = try await hived.property("InvocationID")
        let journal = try await hived.container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
        #expect(!journal.contains { $0.hasPrefix("received ") }, "nothing was passed at this start: \(journal)")
        #expect(journal.contains { $0.hasPrefix("[echo] init: echoing lines on 127.0.0.1:\(port) (listener opened and stored)") },
                "\(journal)")
        let newcomer = try LineSocket.connect(port: port).get()
        defer { close(newcomer) }
        #expect(LineSocket.echo("after the start", on: newcomer) == "after the start")
    }

    @Test("FileDescriptorStoreMax=0 (a drop-in): the echo-server warns, naming FileDescriptorStoreMax=, and still echoes", arguments: SystemdRelease.selected)
    func noStoreWarnsAndEchoes(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await withDropIn(hived, "[Service]\nFileDescriptorStoreMax=0\n") {
            let port = try await startEchoServer(hived)
            let invocation = try await hived.property("InvocationID")
            let entries = try await hived.container.journal(invocation: invocation)
            let warning = entries.first { ($0["MESSAGE"] ?? "").contains("the listener and connections will not survive a restart") }
            #expect(warning?["MESSAGE"] == "[echo] init: the listener and connections will not survive a restart: the descriptor store is unavailable: "
                + "hived.service has no FileDescriptorStoreMax= (it is 0); set it in the unit, e.g. with systemctl edit hived.service",
                "\(entries.compactMap { $0["MESSAGE"] })")
            #expect(warning?["PRIORITY"] == "4", "a warning")
            #expect(entries.contains { ($0["MESSAGE"] ?? "").hasPrefix("[echo] init: echoing lines on 127.0.0.1:\(port) (listener opened)") })
            let client = try LineSocket.connect(port: port).get()
            defer { close(client) }
            #expect(LineSocket.echo("no store here", on: client) == "no store here")
            #expect(try await hived.property("NFileDescriptorStore") == "0")
        }
    }

    /// Runs `body` with `text` as a drop-in of hived.service, then stops hived and removes
    /// the drop-in, whatever happened.
    func withDropIn(_ hived: HivedFixture, _ text: String, _ body: () async throws -> Void) async throws {
        let container = hived.container
        let dropIn = "/etc/systemd/system/hived.service.d/suite.conf"
        try container.write(text, to: dropIn)
        try await container.check(["systemctl", "daemon-reload"])
        var failure: (any Error)?
        do { try await body() } catch { failure = error }
        try await container.systemctl("stop", HivedFixture.unit)
        try await container.check(["rm", "-f", dropIn])
        try await container.check(["systemctl", "daemon-reload"])
        if let failure { throw failure }
    }
}
