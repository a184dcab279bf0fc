import Foundation
import Testing

/// systemd's own Varlink client (`varlinkctl`, systemd 255 and later) against hived's control
/// socket, as an operator on Debian 13 would reach for it instead of `hived ctl`.
extension HivedUnderSystemdTests {
    @Test("varlinkctl info, introspect and a call to io.hivekit.Daemon.GetStatus, against the control socket",
          arguments: SystemdRelease.modern)
    func varlinkctlTalksToHived(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let container = hived.container
        try await hived.prepare(config: Self.config("""
              - name: keeper
                type: probe
                settings: {path: /var/lib/hived/keeper.jsonl}
            """))
        #expect(try await hived.systemctl("start").status == 0)
        let pid = try await hived.property("MainPID")
        let socket = "/run/hived/control"

        let info = try await container.exec(["varlinkctl", "info", socket])
        #expect(info.status == 0, "\(info)")
        let version = try await container.check(["hived", "--version"]).output
        for line in ["Vendor: HiveKit", "Product: hived", "Version: \(version)", "Interfaces: io.hivekit.Daemon"] {
            #expect(info.stdout.contains(line), "\(info.stdout)")
        }
        #expect(info.stdout.contains("org.varlink.service"), "\(info.stdout)")

        let introspect = try await container.exec(["varlinkctl", "introspect", socket, "io.hivekit.Daemon"])
        #expect(introspect.status == 0, "\(introspect)")
        #expect(introspect.stdout.contains("interface io.hivekit.Daemon"), "\(introspect.stdout)")
        #expect(introspect.stdout.contains("method GetStatus() -> ("), "\(introspect.stdout)")

        let call = try await container.exec(["varlinkctl", "call", socket, "io.hivekit.Daemon.GetStatus", "{}"])
        #expect(call.status == 0, "\(call)")
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(call.stdout.utf8)) as? [String: Any], "\(call)")
        #expect(reply["phase"] as? String == "running", "\(reply)")
        #expect((reply["pid"] as? Int).map(String.init) == pid, "\(reply)")
        let modules = reply["modules"] as? [[String: Any]] ?? []
        #expect(modules.contains { $0["name"] as? String == "keeper" && $0["state"] as? String == "active" }, "\(reply)")

        // A method the interface lacks is the Varlink error, not a hang or a crash.
        let unknown = try await container.exec(["varlinkctl", "call", socket, "io.hivekit.Daemon.NoSuchMethod", "{}"])
        #expect(unknown.status != 0 && unknown.stderr.contains("org.varlink.service.MethodNotFound"), "\(unknown)")
        #expect(try await hived.property("MainPID") == pid)
    }
}
