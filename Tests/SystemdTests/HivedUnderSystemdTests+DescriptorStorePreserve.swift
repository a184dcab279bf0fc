import Foundation
import TestSupport
import Testing

/// `FileDescriptorStorePreserve=yes` (systemd 254 and later) through the documentation's drop-in: the
/// store outlives a stop, so the echo-server's listener and connections come back at the
/// next start as they do after a restart.
extension HivedUnderSystemdTests {
    @Test("FileDescriptorStorePreserve=yes (the documentation's drop-in): systemctl stop, then start: a connection open before echoes after",
          arguments: SystemdRelease.modern)
    func preservedStoreOutlivesAStop(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let container = hived.container
        try await withDropIn(hived, try OperatorDocumentation.block("preserveDropIn")) {
            var failure: (any Error)?
            do {
                let port = try await startEchoServer(hived)
                let client = try LineSocket.connect(port: port).get()
                defer { close(client) }
                #expect(LineSocket.echo("before the stop", on: client) == "before the stop")
                #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try await hived.property("NFileDescriptorStore") == "2" },
                        "the listener and the connection are in the store")

                #expect(try await hived.systemctl("stop").status == 0)
                let stopped = try await container.properties(HivedFixture.unit, ["ActiveState", "NFileDescriptorStore"])
                #expect(stopped == ["ActiveState": "inactive", "NFileDescriptorStore": "2"], "the store outlives the stop: \(stopped)")

                #expect(try await hived.systemctl("start").status == 0)
                #expect(LineSocket.echo("after the start", on: client) == "after the start", "the same connection is served again")
                let invocation = try await hived.property("InvocationID")
                let journal = try await container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
                #expect(journal.contains { $0.contains("listener restored from the descriptor store; resumed 1 connection") },
                        "\(journal)")
            } catch { failure = error }
            // The store lives as long as the unit is loaded: empty it for the tests after.
            try await hived.systemctl("stop")
            try await container.check(["systemctl", "clean", "--what=fdstore", HivedFixture.unit])
            #expect(try await hived.property("NFileDescriptorStore") == "0")
            if let failure { throw failure }
        }
    }
}
