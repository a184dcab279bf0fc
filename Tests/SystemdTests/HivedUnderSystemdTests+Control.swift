import Foundation
import TestSupport
import Testing

extension HivedUnderSystemdTests {
    @Test("systemctl reload goes through hived ctl reload: a bad file fails it with the daemon's FILE:LINE", arguments: SystemdRelease.selected)
    func reloadThroughTheControlSocket(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let container = hived.container
        let good = Self.config("""
              - name: keeper
                type: probe
                settings: {path: /var/lib/hived/keeper.jsonl}
            """)
        try await hived.prepare(config: good)
        #expect(try await hived.systemctl("start").status == 0)
        let pid = try await hived.property("MainPID")

        // The socket is in the runtime directory, 0660, owned by the service's user.
        let socket = try await container.exec(["stat", "-c", "%a %U %G %F", "/run/hived/control"])
        #expect(socket.output == "660 hived hived socket", "\(socket)")

        // hived ctl status inside the container shows the modules.
        let status = try await container.exec(["hived", "ctl", "status"])
        #expect(status.status == 0, "\(status)")
        #expect(status.stdout.contains("phase: running"), "\(status.stdout)")
        #expect(status.stdout.contains("keeper") && status.stdout.contains("active"), "\(status.stdout)")
        let blame = try await container.exec(["hived", "ctl", "blame"])
        #expect(blame.stdout.contains("keeper.init"), "\(blame)")

        // A good reload succeeds and says what it did.
        #expect(try await hived.systemctl("reload").status == 0)
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.probe("keeper").steps.contains("keeper.reload") })

        // A bad one fails systemctl reload, with the daemon's file:line in the journal.
        let bad = Self.config("""
              - name: keeper
                type: probe
                priority: high
            """)
        try hived.writeConfig(bad)
        let line = bad.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("priority: high") }! + 1
        let reload = try await hived.systemctl("reload")
        #expect(reload.status != 0, "\(reload)")
        let logged = try await eventually(timeout: .seconds(15), every: .systemctl) {
            let journal = try await container.exec(["journalctl", "-u", HivedFixture.unit, "--no-pager", "-o", "cat"])
            return journal.stdout.contains("/etc/hived/hived.yaml:\(line): modules[0].priority: expected an integer")
        }
        #expect(logged, "hived ctl reload printed FILE:LINE: message")
        #expect(try await hived.property("ActiveState") == "active")
        #expect(try await hived.property("MainPID") == pid)
        #expect(try !hived.probe("keeper").steps.contains("keeper.teardown"), "nothing changed")

        // SIGHUP keeps working.
        try hived.writeConfig(good)
        let reloads = try hived.probe("keeper").steps.filter { $0 == "keeper.reload" }.count
        #expect(try await hived.systemctl("kill", "-s", "SIGHUP").status == 0)
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.probe("keeper").steps.filter { $0 == "keeper.reload" }.count > reloads })
    }

    @Test("systemctl reload still reloads with the control socket off: hived ctl reload falls back to SIGHUP", arguments: SystemdRelease.selected)
    func reloadWithTheSocketOff(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let config = Self.config("""
              - name: keeper
                type: probe
                settings: {path: /var/lib/hived/keeper.jsonl}
            """) + "\ncontrol: {enabled: false}\n"
        try await hived.prepare(config: config)
        #expect(try await hived.systemctl("start").status == 0)
        let socket = try await hived.container.exec(["test", "-e", "/run/hived/control"])
        #expect(socket.status != 0, "control: {enabled: false} serves no socket")

        let reload = try await hived.systemctl("reload")
        #expect(reload.status == 0, "\(reload)")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.probe("keeper").steps.contains("keeper.reload") })
        let logged = try await eventually(timeout: .seconds(15), every: .systemctl) {
            let journal = try await hived.container.exec(["journalctl", "-u", HivedFixture.unit, "--no-pager", "-o", "cat"])
            return journal.stdout.contains("sent SIGHUP to pid")
        }
        #expect(logged, "hived ctl reload said it fell back to SIGHUP")
        #expect(try await hived.property("ActiveState") == "active")
    }

    @Test("control: {group: hived}, as the documentation advises: hived starts, a member of hived is served, others are not", arguments: SystemdRelease.selected)
    func operatorsInTheControlGroup(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let container = hived.container
        try await container.check(["sh", "-c", """
            id ops-member >/dev/null 2>&1 || useradd --no-create-home --groups hived ops-member
            id ops-outsider >/dev/null 2>&1 || useradd --no-create-home ops-outsider
            """])
        let config = Self.config("""
              - name: keeper
                type: probe
                settings: {path: /var/lib/hived/keeper.jsonl}
            """) + "\ncontrol: {group: hived}\n"
        try await hived.prepare(config: config)
        let start = try await hived.systemctl("start")
        #expect(start.status == 0, "\(start)")
        guard start.status == 0 else {
            let journal = try await container.exec(["journalctl", "-u", HivedFixture.unit, "--no-pager", "-o", "cat", "-n", "5"])
            Issue.record("hived did not start with control.group hived: \(journal.stdout)")
            return
        }
        let socket = try await container.exec(["stat", "-c", "%a %U %G", "/run/hived/control"])
        #expect(socket.output == "660 hived hived", "\(socket)")
        let member = try await container.exec(["runuser", "-u", "ops-member", "--", "hived", "ctl", "status"])
        #expect(member.status == 0, "\(member)")
        #expect(member.stdout.contains("keeper"), "\(member)")
        let outsider = try await container.exec(["runuser", "-u", "ops-outsider", "--", "hived", "ctl", "status"])
        #expect(outsider.status == 77, "\(outsider)")
    }
}
