import Foundation
import Testing

extension HivedUnderSystemdTests {
    @Test("dpkg -r stops hived, --purge removes its configuration and state, reinstalling starts it again")
    func removePurgeReinstall() async throws {
        let hived = try hived
        let container = hived.container
        try await hived.prepare(config: Self.config("""
              - name: doomed
                type: probe
                settings: {path: /var/lib/hived/doomed.jsonl}
            """))
        #expect(try await hived.systemctl("start").status == 0)

        let remove = try await container.exec(["dpkg", "-r", "hived"], timeout: .seconds(180))
        #expect(remove.status == 0, "\(remove)")
        #expect(try await hived.property("ActiveState") == "inactive", "removing stops the service")
        #expect(try hived.steps("doomed").contains("doomed.teardown"), "stopped the orderly way")
        #expect(container.read("/usr/bin/hived") == nil)
        #expect(container.read(HivedFixture.configPath) != nil, "dpkg -r keeps the conffile")

        let purge = try await container.exec(["dpkg", "--purge", "hived"], timeout: .seconds(180))
        #expect(purge.status == 0, "\(purge)")
        #expect(container.read(HivedFixture.configPath) == nil, "purge removes the configuration")
        #expect(!FileManager.default.fileExists(atPath: container.hostPath(HivedFixture.stateDirectory)),
                "purge removes /var/lib/hived")

        let install = try await container.exec(["dpkg", "-i", hived.packageInside], timeout: .seconds(300))
        #expect(install.status == 0, "\(install)")
        #expect(try await hived.systemctl("is-active").output == "active")
        #expect(try await hived.systemctl("is-enabled").output == "enabled")
        #expect(container.read(HivedFixture.configPath)?.contains("type: probe") == true, "the default configuration is back")
    }
}
