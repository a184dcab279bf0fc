import Foundation
import TestSupport
import Testing

/// `Type=notify-reload` (systemd 253 and later) through the documentation's drop-in, which also
/// empties `ExecReload=`: systemd sends `SIGHUP` itself and the reload completes through
/// hived's `RELOADING=1` and `READY=1` alone.
extension HivedUnderSystemdTests {
    @Test("Type=notify-reload (the documentation's drop-in, ExecReload= empty): systemctl reload waits for RELOADING=1 and READY=1 alone",
          arguments: SystemdRelease.modern)
    func notifyReloadDropIn(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await withDropIn(hived, try OperatorDocumentation.block("notifyReloadDropIn")) {
            try await hived.prepare(config: Self.config("""
                  - name: sluggish
                    type: probe
                    settings: {path: /var/lib/hived/sluggish.jsonl, stall_until: {reload: \(HivedFixture.releasePath("release-reload"))}}
                """))
            #expect(try await hived.systemctl("start").status == 0)
            let unit = try await hived.container.properties(HivedFixture.unit, ["Type", "ExecReload", "ReloadSignal"])
            #expect(unit["Type"] == "notify-reload" && (unit["ExecReload"] ?? "").isEmpty && unit["ReloadSignal"] == "1", "\(unit)")
            let pid = try await hived.property("MainPID")
            let invocation = try await hived.property("InvocationID")

            // The reload is held open in the module's hook: systemd shows reloading and
            // systemctl waits, with no command of its own to wait for.
            let container = hived.container
            let reload = Task { () -> (CommandResult, ContinuousClock.Instant) in
                let result = try await container.systemctl("reload", HivedFixture.unit)
                return (result, ContinuousClock.now)
            }
            #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.steps("sluggish").contains("sluggish.reload") }, "\(hived.shown("sluggish"))")
            #expect(try await hived.property("ActiveState") == "reloading")
            try await Task.sleep(for: .seconds(1))
            let released = ContinuousClock.now
            try hived.release("release-reload")
            let (result, returned) = try await reload.value
            #expect(result.status == 0, "\(result)")
            #expect(returned > released, "systemctl reload returned before the held reload ended")
            #expect(try await hived.property("ActiveState") == "active")
            #expect(try await hived.property("MainPID") == pid)
            // Nothing but hived itself logged: no `hived ctl reload` ran.
            let senders = Set(try await container.journal(invocation: invocation).compactMap { $0["_PID"] })
            #expect(senders == [pid], "journal entries from other processes: \(senders)")

            // A bad file: systemctl reload cannot fail (READY=1 follows either way); the
            // error is in the status line and the running configuration stays.
            try hived.writeConfig(Self.config("""
                  - name: sluggish
                    type: no-such-module-type
                """))
            let refused = try await hived.systemctl("reload")
            #expect(refused.status == 0, "\(refused)")
            let status = try await hived.property("StatusText")
            #expect(status.hasPrefix("reload failed, previous configuration still running: /etc/hived/hived.yaml:"), "\(status)")
            #expect(try await hived.property("ActiveState") == "active")
            #expect(try !hived.steps("sluggish").contains("sluggish.teardown"))
        }
    }
}
