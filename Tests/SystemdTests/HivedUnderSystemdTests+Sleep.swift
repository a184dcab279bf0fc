import Foundation
import TestSupport
import Testing

/// System sleep through the container's real logind: its delay lock, its
/// `PrepareForSleep` around `systemctl suspend`, and signals from anyone else.
///
/// The container's kernel offers no sleep state (`/sys/power/state` is empty, so logind's
/// `CanSuspend` is `na` on 252 and fails with `Read-only file system` on 257);
/// ``enableSuspend(_:)`` bind-mounts a file holding `freeze mem` over
/// it inside the container only and restarts logind. `systemctl suspend` then runs
/// logind's whole cycle: `PrepareForSleep(true)`, waiting for delay locks, then
/// `systemd-sleep` writes `mem` into that file and returns, then `PrepareForSleep(false)`.
extension HivedUnderSystemdTests {
    /// Two probes, one sync and one async, sharing /var/lib/hived/sleep.jsonl.
    static func sleepConfig(sleep: String = "{}", stall: String, extra: String = "") -> String {
        """
        environment: testing
        log: {level: debug, target: auto}
        budgets: {event: 10s, stop: 30s}
        signals: {SIGUSR1: "custom:mark"}
        sleep: \(sleep)
        \(extra)
        modules:
          - name: syncer
            type: probe
            settings: {path: /var/lib/hived/sleep.jsonl, stall_on: {background: \(stall)}}
          - name: asyncer
            type: probe
            async: true
            settings: {path: /var/lib/hived/sleep.jsonl, stall_on: {background: \(stall)}}
        """
    }

    @Test("hived holds logind's delay lock for sleep while it runs, as the hived user", arguments: SystemdRelease.selected)
    func holdsADelayLock(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await enableSuspend(hived.container)
        try await hived.prepare(config: Self.sleepConfig(stall: "1ms"))
        #expect(try await hived.systemctl("start").status == 0)
        let pid = try await hived.property("MainPID")
        let inhibitors = try await hived.container.check(["systemd-inhibit", "--list", "--no-pager"]).stdout
        let line = inhibitors.split(separator: "\n").first { $0.hasPrefix("hived ") }
        let fields = line.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) } ?? []
        // WHO UID USER PID COMM WHAT WHY… MODE
        #expect(fields.count >= 8, "no inhibitor from hived:\n\(inhibitors)")
        #expect(fields.count >= 8 && fields[2] == "hived" && fields[3] == pid && fields[5] == "sleep"
                && fields.last == "delay", "\(inhibitors)")
        #expect(inhibitors.contains("modules finish background work"))
    }

    @Test("without polkitd logind refuses the hived user a delay lock: one info line, hived runs on; with polkitd, the lock", arguments: SystemdRelease.selected)
    func noPolkitNoDelayLock(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let container = hived.container
        try await enableSuspend(hived.container)
        try await hived.prepare(config: Self.sleepConfig(stall: "1ms"))
        // As on a machine without polkitd (Priority: optional in Debian): stopped, and its
        // D-Bus activation file out of the way, so the bus cannot start it when logind asks.
        let activation = "/usr/share/dbus-1/system-services/org.freedesktop.PolicyKit1.service"
        let reloadBus = "busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus ReloadConfig"
        try await container.check(["sh", "-c", "systemctl stop polkit.service && mv \(activation) /run/ && \(reloadBus)"])
        var failure: (any Error)?
        do {
            #expect(try await hived.systemctl("start").status == 0)
            let invocation = try await hived.property("InvocationID")
            let entries = try await container.journal(invocation: invocation)
            let lines = entries.filter { ($0["MESSAGE"] ?? "").contains("system sleep") || ($0["MESSAGE"] ?? "").contains("delay lock") }
            #expect(lines.count == 1, "\(entries.compactMap { $0["MESSAGE"] })")
            #expect(lines.first?["MESSAGE"]
                == "system sleep not followed: logind gave no delay lock (org.freedesktop.DBus.Error.AccessDenied: Permission denied)",
                "\(lines.compactMap { $0["MESSAGE"] })")
            #expect(lines.first?["PRIORITY"] == "6", "an info line")
            let inhibitors = try await container.check(["systemd-inhibit", "--list", "--no-pager"]).stdout
            #expect(!inhibitors.split(separator: "\n").contains { $0.hasPrefix("hived ") }, "\(inhibitors)")
            try await hived.kill("SIGUSR1")
            #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.probe("sleep").contains { $0.name == "mark" } }, "hived runs on")
            #expect(try await hived.property("StatusText") == "running 2 modules")
        } catch { failure = error }
        try await hived.systemctl("stop")
        try await container.check(["sh", "-c", "mv /run/\(activation.split(separator: "/").last ?? "") \(activation) && \(reloadBus)"])
        if let failure { throw failure }

        #expect(try await hived.systemctl("start").status == 0)
        let pid = try await hived.property("MainPID")
        let inhibitors = try await container.check(["systemd-inhibit", "--list", "--no-pager"]).stdout
        #expect(inhibitors.split(separator: "\n").contains { $0.hasPrefix("hived ") && $0.contains(" \(pid) ") },
                "with polkitd the lock is granted:\n\(inhibitors)")
    }

    @Test("systemctl suspend: every module gets background (reason sleep) before the lock goes; foreground and a new lock after", arguments: SystemdRelease.selected)
    func followsARealSuspend(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await enableSuspend(hived.container)
        try await hived.prepare(config: Self.sleepConfig(stall: "1500ms"))
        #expect(try await hived.systemctl("start").status == 0)
        let pid = try await hived.property("MainPID")
        let invocation = try await hived.property("InvocationID")
        let cursor = try await journalCursor(hived.container)

        #expect(try await hived.container.systemctl("suspend").status == 0)
        let resumed = try await eventually(timeout: .seconds(60), every: .systemctl) {
            try hived.probe("sleep").filter { $0.event == "foreground" }.count == 2
        }
        let records = try hived.probe("sleep")
        #expect(resumed, "\(records)")
        let backgrounds = records.filter { $0.event == "background" }
        #expect(Set(backgrounds.map(\.module)) == ["syncer", "asyncer"], "\(records)")
        #expect((backgrounds + records.filter { $0.event == "foreground" }).allSatisfy { $0.params == ["reason": "sleep"] },
                "\(records)")

        // The system slept only after both hooks returned: each started at its ts and
        // stalled 1.5 s; systemd-sleep logged its entry after the lock was released.
        let sleepEntry = try await eventuallyValue(timeout: .seconds(30), every: .systemctl) {
            try await journalSince(cursor, in: hived.container).first { $0["MESSAGE_ID"] == Self.sleepStart }
        }
        let slept = Double(sleepEntry?["__REALTIME_TIMESTAMP"] ?? "").map { $0 / 1_000_000 } ?? 0
        let lastBackground = backgrounds.map(\.ts).max() ?? .infinity
        #expect(slept >= lastBackground + 1.5, "slept at \(slept), background started at \(backgrounds.map(\.ts))")
        let firstForeground = records.filter { $0.event == "foreground" }.map(\.ts).min() ?? 0
        #expect(firstForeground >= slept, "foreground at \(firstForeground) comes after the sleep at \(slept)")
        let log = try await hived.container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
        #expect(log.contains { $0.contains("delay lock released after") }, "\(log)")

        // After resume hived holds a new lock and runs in the foreground.
        let relocked = try await eventually(timeout: .seconds(15), every: .systemctl) {
            let list = try await hived.container.check(["systemd-inhibit", "--list", "--no-pager"]).stdout
            return list.split(separator: "\n").contains { $0.hasPrefix("hived ") && $0.contains(" \(pid) ") }
        }
        #expect(relocked, "no new delay lock after resume")
        #expect(try await hived.property("StatusText") == "running 2 modules")
        #expect(try await hived.property("MainPID") == pid)
    }

    @Test("a background past sleep.budget: the lock goes at the budget naming the late modules; a stop then works as any stop", arguments: SystemdRelease.selected)
    func sleepBudgetReleasesTheLock(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await enableSuspend(hived.container)
        try await hived.prepare(config: Self.sleepConfig(sleep: "{budget: 1s}", stall: "6s"))
        #expect(try await hived.systemctl("start").status == 0)
        let invocation = try await hived.property("InvocationID")
        let cursor = try await journalCursor(hived.container)

        #expect(try await hived.container.systemctl("suspend").status == 0)
        let sleepEntry = try await eventuallyValue(timeout: .seconds(30), every: .systemctl) {
            try await journalSince(cursor, in: hived.container).first { $0["MESSAGE_ID"] == Self.sleepStart }
        }
        let backgrounds = try hived.probe("sleep").filter { $0.event == "background" }
        let slept = Double(sleepEntry?["__REALTIME_TIMESTAMP"] ?? "").map { $0 / 1_000_000 } ?? 0
        let started = backgrounds.map(\.ts).min() ?? 0
        #expect(sleepEntry != nil, "the system never slept")
        // hived's 1 s budget released the lock, not logind's InhibitDelayMaxSec= (5 s), which
        // would have logged that the timeout was reached.
        #expect(slept >= started + 0.9 && slept < started + 3, "slept at \(slept), background started at \(started)")
        let logind = try await journalSince(cursor, in: hived.container).compactMap { $0["MESSAGE"] }
        #expect(!logind.contains { $0.contains("inhibitor timeout is reached") }, "logind waited out its own delay: \(logind)")
        let warned = try await eventually(timeout: .seconds(15), every: .systemctl) {
            try await hived.container.journal(invocation: invocation).contains {
                let message = $0["MESSAGE"] ?? ""
                return message.hasPrefix("sleep budget of 1")
                    && message.contains("module 'syncer' still in background")
                    && message.contains("module 'asyncer' still in background")
            }
        }
        let messages = try await hived.container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
        #expect(warned, "the late modules are named: \(messages)")

        // Stop while background still stalls: the stop waits for it, then terminate and
        // teardown run and the unit ends inactive, not failed.
        let stop = try await hived.systemctl("stop")
        #expect(stop.status == 0, "\(stop)")
        let state = try await hived.container.properties(HivedFixture.unit, ["ActiveState", "Result", "ExecMainStatus"])
        #expect(state["ActiveState"] == "inactive" && state["Result"] == "success" && state["ExecMainStatus"] == "0",
                "\(state)")
        let steps = try hived.probe("sleep").map(\.event)
        #expect(steps.filter { $0 == "teardown" }.count == 2, "\(steps)")
    }

    @Test("PrepareForSleep from another bus name, even addressed to hived, changes nothing", arguments: SystemdRelease.selected)
    func ignoresPrepareForSleepFromOthers(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await enableSuspend(hived.container)
        try await hived.prepare(config: Self.sleepConfig(stall: "1ms"))
        #expect(try await hived.systemctl("start").status == 0)
        let pid = try await hived.property("MainPID")
        let invocation = try await hived.property("InvocationID")
        let names = try await hived.container.check(["busctl", "list", "--no-pager"]).stdout
        // busctl list: NAME PID PROCESS USER CONNECTION…; hived's unique name is on its PID's row.
        var unique: String?
        for line in names.split(separator: "\n") {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            if columns.count > 1, columns[0].hasPrefix(":"), columns[1] == pid { unique = columns[0] }
        }
        let hivedName = try #require(unique, "hived has no connection on the system bus:\n\(names)")

        let emit = ["busctl", "emit", "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", "true"]
        try await hived.container.check(emit)
        try await hived.container.check(["busctl", "--destination=\(hivedName)"] + emit.dropFirst())
        // A marker through the same event path, after the signals were sent.
        let ignored = try await eventually(timeout: .seconds(15), every: .systemctl) {
            try await hived.container.journal(invocation: invocation).contains {
                ($0["MESSAGE"] ?? "").hasPrefix("ignored PrepareForSleep from :")
            }
        }
        #expect(ignored, "hived logs the signal it ignored")
        let kill = try await hived.systemctl("kill", "-s", "SIGUSR1")
        let status = try await hived.systemctl("status")
        #expect(kill.status == 0, "\(kill)\n\(status.stdout)")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.probe("sleep").contains { $0.name == "mark" } })
        #expect(try !hived.probe("sleep").contains { $0.event == "background" }, "\(hived.shown("sleep"))")
        let inhibitors = try await hived.container.check(["systemd-inhibit", "--list", "--no-pager"]).stdout
        #expect(inhibitors.split(separator: "\n").contains { $0.hasPrefix("hived ") && $0.contains(" \(pid) ") },
                "the lock is still held:\n\(inhibitors)")
        #expect(try await hived.property("StatusText") == "running 2 modules")
    }

    @Test("SIGTSTP and sleep: suspended if either asks, foreground only when neither does", arguments: SystemdRelease.selected)
    func signalAndSleepInterplay(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await enableSuspend(hived.container)
        try await hived.prepare(config: Self.sleepConfig(stall: "1ms"))
        #expect(try await hived.systemctl("start").status == 0)
        let invocation = try await hived.property("InvocationID")
        func events() throws -> [String] { try hived.probe("sleep").filter { $0.module == "syncer" }.map { "\($0.event):\($0.params["reason"] ?? "")" } }

        #expect(try await hived.systemctl("kill", "-s", "SIGTSTP").status == 0)
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try events().contains("background:signal") }, "\(hived.shown("sleep"))")
        // Sleep while SIGTSTP holds the background: no second background; the lock goes at
        // once; resume brings no foreground while SIGTSTP still asks.
        #expect(try await hived.container.systemctl("suspend").status == 0)
        let resumed = try await eventually(timeout: .seconds(30), every: .systemctl) {
            try await hived.container.journal(invocation: invocation).contains { $0["MESSAGE"] == "system resumed from sleep" }
        }
        #expect(resumed)
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try await hived.property("StatusText").hasPrefix("suspended: modules in background (SIGCONT resumes)") })
        #expect(try await hived.systemctl("kill", "-s", "SIGCONT").status == 0)
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try events().contains("foreground:signal") }, "\(hived.shown("sleep"))")
        #expect(try events() == ["setup:", "init:", "ready:", "background:signal", "foreground:signal"], "\(hived.shown("sleep"))")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try await hived.property("StatusText") == "running 2 modules" })
    }

    // MARK: - Support

    /// The `MESSAGE_ID` of systemd-sleep's entry as the system goes to sleep
    /// (`SD_MESSAGE_SLEEP_START`): "Entering sleep state 'suspend'..." on 252, "Performing
    /// sleep operation 'suspend'..." on 257.
    static let sleepStart = "6bbd95ee977941e497c48be27c254128"

    /// Makes logind able to suspend inside the container (see the extension's comment);
    /// idempotent.
    func enableSuspend(_ container: SystemdContainer) async throws {
        let canSuspend = ["busctl", "call", "org.freedesktop.login1", "/org/freedesktop/login1",
                          "org.freedesktop.login1.Manager", "CanSuspend"]
        if try await container.exec(canSuspend).output == #"s "yes""# { return }
        try await container.check(["sh", "-c", """
            printf 'freeze mem\\n' > /run/hived-suite-power-state
            mountpoint -q /sys/power/state || mount --bind /run/hived-suite-power-state /sys/power/state
            systemctl restart systemd-logind
            """])
        let ready = try await eventually(timeout: .seconds(20), every: .systemctl) {
            try await container.exec(canSuspend).output == #"s "yes""#
        }
        #expect(ready, "logind still cannot suspend in the container")
    }

    /// The container's journal's cursor now.
    func journalCursor(_ container: SystemdContainer) async throws -> String {
        let result = try await container.check(["journalctl", "--no-pager", "-n", "0", "--show-cursor"])
        return result.stdout.components(separatedBy: "-- cursor: ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// The container's journal entries after `cursor`, as field maps.
    func journalSince(_ cursor: String, in container: SystemdContainer) async throws -> [[String: String]] {
        let result = try await container.check(["journalctl", "--no-pager", "-o", "json", "--after-cursor=\(cursor)"])
        return result.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?.compactMapValues { $0 as? String }
        }
    }
}
