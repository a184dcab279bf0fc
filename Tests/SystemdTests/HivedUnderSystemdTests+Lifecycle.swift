import Foundation
import TestSupport
import Testing

extension HivedUnderSystemdTests {
    @Test("systemctl start returns only after READY=1: an init held open holds it back", arguments: SystemdRelease.selected)
    func startWaitsForReadiness(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await hived.prepare(config: Self.config("""
              - name: slow
                type: probe
                settings: {path: /var/lib/hived/slow.jsonl, stall_until: {init: \(HivedFixture.releasePath("release-init"))}}
            """))
        let container = hived.container
        let start = Task { try await container.systemctl("start", HivedFixture.unit) }
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.steps("slow") == ["slow.setup", "slow.init"] }, "\(hived.shown("slow"))")
        // init is held open: the unit is still activating and systemctl still waits.
        let state = try await hived.container.properties(HivedFixture.unit, ["ActiveState", "SubState"])
        #expect(state["ActiveState"] == "activating" && state["SubState"] == "start", "\(state)")
        let early = try await hived.systemctl("is-active")
        #expect(early.output == "activating", "\(early)")
        try hived.release("release-init")
        let started = try await start.value
        #expect(started.status == 0, "\(started)")
        let after = try await hived.container.properties(HivedFixture.unit, ["ActiveState", "SubState"])
        #expect(after["ActiveState"] == "active" && after["SubState"] == "running", "\(after)")
        // init had finished: ready follows it once READY=1 was sent.
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.steps("slow") == ["slow.setup", "slow.init", "slow.ready"] },
                "\(hived.shown("slow"))")
    }

    @Test("systemctl reload runs the reload events and the unit stays active", arguments: SystemdRelease.selected)
    func reloadRunsReloadEvents(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await hived.prepare(config: Self.config("""
              - name: kept
                type: probe
                settings: {path: /var/lib/hived/kept.jsonl}
            """))
        #expect(try await hived.systemctl("start").status == 0)
        let pid = try await hived.property("MainPID")

        try hived.writeConfig(Self.config("""
              - name: kept
                type: probe
                settings: {path: /var/lib/hived/kept.jsonl, fail_on: ["custom:never"]}
              - name: added
                type: probe
                settings: {path: /var/lib/hived/added.jsonl}
            """))
        let reload = try await hived.systemctl("reload")
        #expect(reload.status == 0, "\(reload)")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.steps("kept").contains("kept.reload") }, "\(hived.shown("kept"))")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.steps("added").starts(with: ["added.setup", "added.init"]) },
                "\(hived.shown("added"))")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try await hived.property("ActiveState") == "active" })
        #expect(try await hived.property("MainPID") == pid, "a reload must not restart hived")
        #expect(try !hived.steps("kept").contains("kept.teardown"))
    }

    @Test("during a slow reload the unit shows reloading, then active again", arguments: SystemdRelease.selected)
    func slowReloadShowsReloading(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await hived.prepare(config: Self.config("""
              - name: sluggish
                type: probe
                settings: {path: /var/lib/hived/sluggish.jsonl, stall_until: {reload: \(HivedFixture.releasePath("release-reload"))}}
            """))
        #expect(try await hived.systemctl("start").status == 0)

        let container = hived.container
        let reload = Task { try await container.systemctl("reload", HivedFixture.unit) }
        // The reload is held open until released: the unit shows reloading meanwhile.
        let sawReloading = try await eventually(timeout: .seconds(30), every: .systemctl) { try await hived.property("ActiveState") == "reloading" }
        #expect(sawReloading, "the unit never showed reloading during a held reload")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.steps("sluggish").contains("sluggish.reload") }, "\(hived.shown("sluggish"))")
        try hived.release("release-reload")
        #expect(try await reload.value.status == 0)
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try await hived.property("ActiveState") == "active" })
    }

    @Test("a reload with a broken config changes nothing and puts the error in the status line", arguments: SystemdRelease.selected)
    func brokenReloadKeepsOldConfig(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let good = Self.config(signals: #"{SIGUSR1: "custom:ping"}"#, """
              - name: keeper
                type: probe
                settings: {path: /var/lib/hived/keeper.jsonl}
            """)
        try await hived.prepare(config: good)
        #expect(try await hived.systemctl("start").status == 0)
        let pid = try await hived.property("MainPID")

        try hived.writeConfig(Self.config("""
              - name: keeper
                type: no-such-module-type
            """))
        let reload = try await hived.systemctl("reload")
        #expect(reload.status != 0, "ExecReload validates the file, so a broken reload fails visibly")
        let statusText = try await eventually(timeout: .seconds(15), every: .systemctl) {
            try await hived.property("StatusText").contains("/etc/hived/hived.yaml:")
        }
        let status = try await hived.systemctl("status")
        #expect(statusText, "the status line names the file and line of the error:\n\(status.stdout)")
        #expect(try await hived.property("ActiveState") == "active", "\(status.stdout)")
        #expect(try await hived.property("MainPID") == pid)

        // The old configuration still runs: its module is there and its signal map too.
        #expect(try !hived.steps("keeper").contains("keeper.teardown"))
        try await hived.kill("SIGUSR1")
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.steps("keeper").contains("keeper.custom:ping") },
                "\(hived.shown("keeper"))")

        // A later good reload works.
        try hived.writeConfig(good)
        #expect(try await hived.systemctl("reload").status == 0)
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try hived.steps("keeper").contains("keeper.reload") })
        #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try await !hived.property("StatusText").contains("hived.yaml:") },
                "the error stays in the status line after a good reload")
    }

    /// Three probes sharing one file, so their lines show the order across modules.
    static let orderedModules = config("""
          - name: first
            type: probe
            priority: 100
            settings: {path: /var/lib/hived/order.jsonl}
          - name: second
            type: probe
            priority: 50
            settings: {path: /var/lib/hived/order.jsonl}
          - name: third
            type: probe
            priority: 10
            settings: {path: /var/lib/hived/order.jsonl}
        """)

    @Test("systemctl stop: terminate in priority order, teardown in reverse, unit inactive", arguments: SystemdRelease.selected)
    func stopRunsTeardownInReverse(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await hived.prepare(config: Self.orderedModules)
        #expect(try await hived.systemctl("start").status == 0)

        let stop = try await hived.systemctl("stop")
        #expect(stop.status == 0, "\(stop)")
        let state = try await hived.container.properties(HivedFixture.unit, ["ActiveState", "Result", "ExecMainStatus"])
        #expect(state["ActiveState"] == "inactive" && state["Result"] == "success", "\(state)")
        #expect(state["ExecMainStatus"] == "0", "\(state)")

        let steps = try hived.steps("order")
        #expect(steps.filter { $0.hasSuffix(".terminate") } == ["first.terminate", "second.terminate", "third.terminate"])
        #expect(steps.filter { $0.hasSuffix(".teardown") } == ["third.teardown", "second.teardown", "first.teardown"])
        let lastTerminate = steps.lastIndex { $0.hasSuffix(".terminate") } ?? steps.endIndex
        let firstTeardown = steps.firstIndex { $0.hasSuffix(".teardown") } ?? -1
        #expect(lastTerminate < firstTeardown, "every terminate comes before any teardown: \(steps)")
    }

    @Test("the journal records the stop per module: HIVE_MODULE/HIVE_EVENT, terminate in order, teardown in reverse", arguments: SystemdRelease.selected)
    func stopIsJournaledPerModule(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await hived.prepare(config: Self.orderedModules)
        #expect(try await hived.systemctl("start").status == 0)
        let invocation = try await hived.property("InvocationID")
        #expect(try await hived.systemctl("stop").status == 0)

        var teardowns: [String] = []
        var terminates: [String] = []
        var identifiers: Set<String> = []
        var journal: [[String: String]] = []
        let logged = try await eventually(timeout: .seconds(15), every: .systemctl) {
            journal = try await hived.container.journal(invocation: invocation)
            let entries = journal.filter { $0["HIVE_MODULE"] != nil }
            identifiers = Set(entries.compactMap { $0["SYSLOG_IDENTIFIER"] })
            teardowns = Self.firstOccurrences(of: "teardown", in: entries)
            terminates = Self.firstOccurrences(of: "terminate", in: entries)
            return teardowns.count == 3 && terminates.count == 3
        }
        let seen = journal.map { entry in
            ["SYSLOG_IDENTIFIER", "HIVE_MODULE", "HIVE_EVENT", "MESSAGE"].map { "\($0)=\(entry[$0] ?? "-")" }
                .joined(separator: " ")
        }
        #expect(logged, """
            hived logs every terminate and teardown per module, with HIVE_MODULE/HIVE_EVENT; \
            the journal of this run has:
            \(seen.joined(separator: "\n"))
            """)
        #expect(identifiers == ["hived"], "SYSLOG_IDENTIFIER=hived")
        #expect(terminates == ["first", "second", "third"])
        #expect(teardowns == ["third", "second", "first"])
    }

    /// The modules named in `HIVE_MODULE` of entries whose `HIVE_EVENT` is `event`, in
    /// the order they first appear.
    static func firstOccurrences(of event: String, in entries: [[String: String]]) -> [String] {
        var seen: [String] = []
        for entry in entries where entry["HIVE_EVENT"] == event {
            if let module = entry["HIVE_MODULE"], !seen.contains(module) { seen.append(module) }
        }
        return seen
    }
}
