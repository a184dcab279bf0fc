import Foundation
import Testing

extension HivedUnderSystemdTests {
    @Test("a module that fails init leaves the unit failed, named in the status line and the journal")
    func failingInitFailsTheUnit() async throws {
        let hived = try hived
        try await hived.prepare(config: Self.config("""
              - name: sound
                type: probe
                priority: 10
                settings: {path: /var/lib/hived/sound.jsonl}
              - name: broken
                type: probe
                priority: 5
                settings: {path: /var/lib/hived/broken.jsonl, fail_on: [init]}
            """))
        let start = try await hived.systemctl("start")
        #expect(start.status != 0, "systemctl start must fail: \(start)")

        let state = try await hived.container.properties(HivedFixture.unit, [
            "ActiveState", "StatusText", "ExecMainStatus", "InvocationID", "NRestarts",
        ])
        #expect(state["ActiveState"] == "failed", "\(state)")
        #expect(state["StatusText"]?.contains("broken") == true, "the status line names the module: \(state)")
        #expect(state["ExecMainStatus"] == "70", "\(state)")
        #expect(state["NRestarts"] == "0", "exit 70 is not restarted (RestartPreventExitStatus=): \(state)")
        // Rolled back: the module that had set up was torn down.
        #expect(hived.probe("sound").steps.contains("sound.teardown"), "\(hived.probe("sound").steps)")

        let invocation = state["InvocationID"] ?? ""
        let named = try await eventually(timeout: .seconds(15)) {
            try await hived.container.journal(invocation: invocation).contains {
                $0["HIVE_MODULE"] == "broken" || ($0["MESSAGE"]?.contains("broken") ?? false)
            }
        }
        #expect(named, "the journal names the failing module")
    }

    @Test("a stalled module stops the watchdog pings; systemd restarts hived, which is active again")
    func watchdogRestartsAStalledHived() async throws {
        let hived = try hived
        try await hived.prepare(config: Self.config("""
              - name: hung
                type: probe
                budget: 1s
                settings: {path: /var/lib/hived/hung.jsonl, stall_on: {background: 10m}}
            """))
        #expect(try await hived.systemctl("start").status == 0)
        let pid = try await hived.property("MainPID")
        #expect(try await hived.property("NRestarts") == "0")

        #expect(try await hived.systemctl("kill", "-s", "SIGTSTP").status == 0)
        #expect(await eventually { hived.probe("hung").steps.contains("hung.background") })
        // Budget 1 s, WatchdogSec=10s, RestartSec=1s: well within 60 s.
        let restarted = try await eventually(timeout: .seconds(60)) {
            let state = try await hived.container.properties(HivedFixture.unit, ["NRestarts", "ActiveState", "MainPID"])
            return state["NRestarts"] == "1" && state["ActiveState"] == "active" && state["MainPID"] != pid
        }
        let status = try await hived.systemctl("status")
        #expect(restarted, "systemd did not restart the stalled hived:\n\(status.stdout)")
        let log = try await hived.container.exec(["journalctl", "--no-pager", "-u", HivedFixture.unit, "-o", "cat"])
        #expect(log.stdout.contains("Watchdog timeout"), "systemd restarted hived because of the watchdog")
        #expect(try await hived.property("SubState") == "running")
    }

    @Test("systemctl kill: SIGUSR1 fires the mapped custom event, SIGTSTP/SIGCONT background/foreground")
    func signalsBecomeEvents() async throws {
        let hived = try hived
        try await hived.prepare(config: Self.config(signals: #"{SIGUSR1: "custom:rotate"}"#, """
              - name: ears
                type: probe
                settings: {path: /var/lib/hived/ears.jsonl}
            """))
        #expect(try await hived.systemctl("start").status == 0)

        #expect(try await hived.systemctl("kill", "-s", "SIGUSR1").status == 0)
        #expect(await eventually { hived.probe("ears").steps.contains("ears.custom:rotate") }, "\(hived.probe("ears"))")
        #expect(try await hived.systemctl("kill", "-s", "SIGTSTP").status == 0)
        #expect(await eventually { hived.probe("ears").steps.contains("ears.background") }, "\(hived.probe("ears"))")
        #expect(try await hived.systemctl("kill", "-s", "SIGCONT").status == 0)
        #expect(await eventually { hived.probe("ears").steps.contains("ears.foreground") }, "\(hived.probe("ears"))")

        let steps = hived.probe("ears").steps
        #expect(steps.firstIndex(of: "ears.background")! < steps.firstIndex(of: "ears.foreground")!)
        #expect(try await hived.property("ActiveState") == "active")
    }
}
