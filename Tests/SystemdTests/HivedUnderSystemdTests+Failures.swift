import Foundation
import TestSupport
import Testing

extension HivedUnderSystemdTests {
    @Test("a module that fails init leaves the unit failed, named in the status line and the journal", arguments: SystemdRelease.selected)
    func failingInitFailsTheUnit(release: SystemdRelease) async throws {
        let hived = try hived(release)
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
            "ActiveState", "StatusText", "ExecMainStatus", "InvocationID", "NRestarts", "ExecMainPID",
        ])
        #expect(state["ActiveState"] == "failed", "\(state)")
        #expect(state["StatusText"]?.contains("broken") == true, "the status line names the module: \(state)")
        #expect(state["ExecMainStatus"] == "70", "\(state)")
        #expect(state["NRestarts"] == "0", "exit 70 is not restarted (RestartPreventExitStatus=): \(state)")
        // Rolled back: the module that had set up was torn down.
        #expect(try hived.steps("sound").contains("sound.teardown"), "\(hived.shown("sound"))")

        let invocation = state["InvocationID"] ?? ""
        let named = try await eventually(timeout: .seconds(15), every: .systemctl) {
            try await hived.container.journal(invocation: invocation, pid: state["ExecMainPID"]).contains {
                $0["HIVE_MODULE"] == "broken" || ($0["MESSAGE"]?.contains("broken") ?? false)
            }
        }
        #expect(named, "the journal names the failing module")
    }

    /// Most of its half minute is systemd's timers (WatchdogSec=10s, twice), so it checks
    /// every release at once, each in its own container (``onEveryReleaseAtOnce(_:)``).
    @Test("a stalled module stops the watchdog pings; systemd restarts hived, which is active again, on each release")
    func watchdogRestartsAStalledHived() async {
        await onEveryReleaseAtOnce { release in try await self.watchdogRestartsAStalledHived(release) }
    }

    func watchdogRestartsAStalledHived(_ release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await hived.prepare(config: Self.config("""
              - name: hung
                type: probe
                budget: 1s
                settings: {path: /var/lib/hived/hung.jsonl, stall_on: {background: 10m}}
            """))
        #expect(try await hived.systemctl("start").status == 0)
        let pid = try await hived.property("MainPID")

        // Healthy, hived feeds the watchdog: it runs past WatchdogSec= and is not restarted,
        // and systemd saw its pings well after it became active.
        let healthy = try await hived.container.properties(HivedFixture.unit, [
            "ActiveEnterTimestampMonotonic", "WatchdogUSec",
        ])
        let activeSince = try #require(UInt64(healthy["ActiveEnterTimestampMonotonic"] ?? ""), "\(healthy)")
        let watchdog = try #require(Self.microseconds(healthy["WatchdogUSec"] ?? ""), "\(healthy)")
        #expect(watchdog >= 2_000_000, "\(release): the unit sets WatchdogSec=: \(healthy)")
        let pastWatchdog = activeSince + watchdog * 3 / 2
        #expect(await eventually(timeout: .seconds(60), every: .systemctl) { Self.monotonicMicroseconds() > pastWatchdog }, "\(release)")
        let fed = try await hived.container.properties(HivedFixture.unit, [
            "NRestarts", "MainPID", "ActiveState", "WatchdogTimestampMonotonic",
        ])
        #expect(fed["NRestarts"] == "0" && fed["MainPID"] == pid && fed["ActiveState"] == "active",
                "\(release): a healthy hived outlives WatchdogSec=: \(fed)")
        let lastPing = UInt64(fed["WatchdogTimestampMonotonic"] ?? "") ?? 0
        #expect(lastPing > activeSince + watchdog / 2, "\(release): systemd received WATCHDOG=1 after start: \(fed), active since \(activeSince)")

        try await hived.kill("SIGTSTP")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.steps("hung").contains("hung.background") }, "\(release): \(hived.shown("hung"))")
        // Budget 1 s, WatchdogSec=10s, RestartSec=1s: well within 60 s.
        let restarted = try await eventually(timeout: .seconds(60), every: .systemctl) {
            let state = try await hived.container.properties(HivedFixture.unit, ["NRestarts", "ActiveState", "MainPID"])
            return state["NRestarts"] == "1" && state["ActiveState"] == "active" && state["MainPID"] != pid
        }
        let status = try await hived.systemctl("status")
        #expect(restarted, "\(release): systemd did not restart the stalled hived:\n\(status.stdout)")
        let log = try await hived.container.exec(["journalctl", "--no-pager", "-u", HivedFixture.unit, "-o", "cat"])
        #expect(log.stdout.contains("Watchdog timeout"), "\(release): systemd restarted hived because of the watchdog")
        #expect(try await hived.property("SubState") == "running", "\(release)")
    }

    @Test("systemctl kill: SIGUSR1 fires the mapped custom event, SIGTSTP/SIGCONT background/foreground", arguments: SystemdRelease.selected)
    func signalsBecomeEvents(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await hived.prepare(config: Self.config(signals: #"{SIGUSR1: "custom:rotate"}"#, """
              - name: ears
                type: probe
                settings: {path: /var/lib/hived/ears.jsonl}
            """))
        #expect(try await hived.systemctl("start").status == 0)

        try await hived.kill("SIGUSR1")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.steps("ears").contains("ears.custom:rotate") }, "\(hived.shown("ears"))")
        try await hived.kill("SIGTSTP")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.steps("ears").contains("ears.background") }, "\(hived.shown("ears"))")
        try await hived.kill("SIGCONT")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.steps("ears").contains("ears.foreground") }, "\(hived.shown("ears"))")

        let steps = try hived.steps("ears")
        #expect(steps.firstIndex(of: "ears.background")! < steps.firstIndex(of: "ears.foreground")!)
        #expect(try await hived.property("ActiveState") == "active")
    }

    /// A `systemctl show` time span (`10s`, `1min 30s`, `500ms`) in microseconds.
    static func microseconds(_ span: String) -> UInt64? {
        let units: [(String, UInt64)] = [("min", 60_000_000), ("ms", 1_000), ("us", 1), ("h", 3_600_000_000), ("s", 1_000_000)]
        var total: UInt64 = 0
        for part in span.split(separator: " ") {
            guard let (unit, scale) = units.first(where: { part.hasSuffix($0.0) }),
                let value = UInt64(part.dropLast(unit.count))
            else { return nil }
            total += value * scale
        }
        return total > 0 ? total : nil
    }

    /// `CLOCK_MONOTONIC` in microseconds: the clock systemd's `…Monotonic` properties use
    /// (the container shares this machine's).
    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}
