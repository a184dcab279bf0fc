import Foundation
import TestSupport
import Testing

/// What a reload applies besides the modules, seen in what hived then does, not only in
/// its status line: the signal map, the budgets, the log level; and what it leaves for
/// the next start, with a warning.
@Suite(.serialized) struct ReloadEffectTests {
    /// Reloads `hived` (which runs `path`) onto `text` and waits for the reload's READY=1.
    static func reload(_ hived: HivedProcess, _ directory: TestDirectory, to text: String) async throws -> String {
        let notify = try #require(hived.notify)
        let before = notify.messages.count
        try directory.write("hived.yaml", text)
        hived.signal(SIGHUP)
        let ready = try await hived.waitForReady(after: before)
        return notify.messages[ready]
    }

    @Test func aReloadAppliesTheNewSignalMapAndLogLevel() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let module = "modules:\n  - {name: a, type: probe, settings: {path: \(events)}}\n"
        let path = try directory.write(
            "hived.yaml", "log: {level: info}\nsignals: {SIGUSR1: \"custom:before\"}\n" + module)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGUSR1)
        _ = try await ProbeFile.waitFor(events, "custom:before") { $0.name == "before" }

        let status = try await Self.reload(hived, directory, to:
            "log: {level: debug}\nsignals: {SIGUSR1: \"custom:after\", SIGUSR2: memoryWarning}\n" + module)
        #expect(status.contains("READY=1"), "\(status)")
        hived.signal(SIGUSR1)
        _ = try await ProbeFile.waitFor(events, "custom:after") { $0.name == "after" }
        hived.signal(SIGUSR2)
        _ = try await ProbeFile.waitFor(events, "memoryWarning") { $0.event == "memoryWarning" }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)

        let file = try ProbeFile(path: events)
        #expect(file.lines.filter { $0.event == "custom" }.map(\.name) == ["before", "after"])
        // The probe logs each event at debug level: only once the reload set that level.
        let debug = hived.stderr.split(separator: "\n").filter { $0.contains(" debug [a] ") }
        #expect(!debug.contains { $0.contains("custom: received 'before'") }, "\(debug)")
        #expect(debug.contains { $0.contains("custom: received 'after'") }, "\(hived.stderr)")
        #expect(debug.contains { $0.contains("memoryWarning: received") }, "\(hived.stderr)")
    }

    @Test func aReloadAppliesANewEventBudget() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let config = { (budgets: String) in
            """
            budgets: \(budgets)
            modules:
              - {name: keeper, type: probe, priority: 10, settings: {path: \(events)}}
              - {name: stuck, type: probe, settings: {path: \(events), stall_on: {teardown: 10m}}}
            """
        }
        let path = try directory.write("hived.yaml", config("{event: 60s, stop: 60s}"))
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        _ = try await Self.reload(hived, directory, to: config("{event: 1s, stop: 60s}"))
        let sent = ContinuousClock.now
        hived.signal(SIGTERM)
        // With the old 60 s, the stalled teardown would hold the stop for a minute.
        #expect(try await hived.exitStatus(timeout: .seconds(30)) == 0)
        #expect(ContinuousClock.now - sent < .seconds(30))
        #expect(hived.stderr.contains("teardown: abandoned after its budget of 1"), "\(hived.stderr)")
        #expect(try ProbeFile(path: events).modules(receiving: "teardown") == ["stuck", "keeper"])
    }

    @Test func aReloadAppliesANewStopBudget() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let config = { (budgets: String) in
            """
            budgets: \(budgets)
            modules:
              - {name: stuck, type: probe, settings: {path: \(events), stall_on: {teardown: 10m}}}
            """
        }
        let path = try directory.write("hived.yaml", config("{event: 60s, stop: 60s}"))
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        _ = try await Self.reload(hived, directory, to: config("{event: 60s, stop: 1s}"))
        hived.signal(SIGTERM)
        // With the old 60 s the stop would wait a minute for the stalled teardown.
        #expect(try await hived.exitStatus(timeout: .seconds(30)) == 75)
        let status = try #require(hived.notify?.stateMessages.last)
        #expect(status.contains("stop budget of 1") && status.contains("exceeded"), "\(status)")
        #expect(status.contains("stuck"), "\(status)")
    }

    @Test func whatOnlyTheNextStartAppliesIsNamedInAWarning() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let module = "modules:\n  - {name: a, type: probe, settings: {path: \(events)}}\n"
        let path = try directory.write("hived.yaml", "environment: testing\nlog: {target: stderr}\n" + module)
        // No HIVED_LOG_TARGET override, so the file's log.target counts.
        let hived = try HivedProcess(["run", "--config", path], in: directory, environment: ["HIVED_LOG_TARGET": ""])
        try await hived.waitForReady()
        let status = try await Self.reload(hived, directory, to: """
            environment: staging
            log: {target: auto}
            services:
              - {service: WallClock, implementation: SystemClock}
            \(module)
            """)
        #expect(status.contains("STATUS=reloaded"), "\(status)")
        for what in ["environment", "log.target", "services"] {
            try await hived.waitForStderr(containing: "\(what) changed: takes effect at the next start")
        }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test func aModuleDisabledByAReloadIsTerminatedTornDownAndUnmounted() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let config = { (enabled: Bool) in
            """
            modules:
              - {name: a, type: probe, settings: {path: \(events)}}
              - {name: b, type: probe, enabled: \(enabled), settings: {path: \(events)}}
            """
        }
        let path = try directory.write("hived.yaml", config(true))
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        let status = try await Self.reload(hived, directory, to: config(false))
        #expect(status.contains("removed b"), "\(status)")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let b = try ProbeFile(path: events).lines.filter { $0.module == "b" }.map(\.event)
        #expect(b == ["setup", "init", "ready", "terminate", "teardown", "unmount"], "and nothing after it was disabled")
        #expect(try ProbeFile(path: events).modules(receiving: "teardown") == ["b", "a"])
    }
}
