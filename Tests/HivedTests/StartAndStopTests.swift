import Foundation
import Testing

/// hived started as systemd starts it: the notification sequence, the event order in
/// the probe files, and the exit status.
@Suite(.serialized) struct StartAndStopTests {
    /// Three probes writing one shared file: basic/100, normal/10 (async), normal/10.
    static func threeProbes(_ directory: TestDirectory, extra: String = "", settings: String = "") -> String {
        let events = directory.file("events")
        return """
            environment: testing
            budgets: {event: 2s, stop: 10s}
            \(extra)
            modules:
              - name: web
                type: probe
                priority: 10
                settings: {path: \(events)\(settings)}
              - name: store
                type: probe
                level: basic
                priority: 100
                settings: {path: \(events)}
              - name: cache
                type: probe
                priority: 10
                async: false
                settings: {path: \(events)}
            """
    }

    @Test func startNotifiesReadyAfterInitThenStopsInReverseOrder() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("hived.yaml", Self.threeProbes(directory))
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        let readyIndex = try await hived.waitForReady()
        let atReady = try ProbeFile(path: directory.file("events"))
        #expect(Array(atReady.events.prefix(6)) == [
            "store.setup", "web.setup", "cache.setup", "store.init", "web.init", "cache.init",
        ])
        let ready = try #require(hived.notify?.messages[readyIndex])
        #expect(ready.contains("STATUS=running 3 modules"))
        _ = try await ProbeFile.waitFor(directory.file("events"), "ready") { $0.module == "cache" && $0.event == "ready" }

        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let file = try ProbeFile(path: directory.file("events"))
        #expect(file.modules(receiving: "ready") == ["store", "web", "cache"])
        #expect(file.modules(receiving: "terminate") == ["store", "web", "cache"])
        #expect(file.modules(receiving: "teardown") == ["cache", "web", "store"])
        let lastTerminate = try #require(file.events.lastIndex { $0.hasSuffix(".terminate") })
        let firstTeardown = try #require(file.events.firstIndex { $0.hasSuffix(".teardown") })
        #expect(lastTerminate < firstTeardown)

        let states = try #require(hived.notify?.stateMessages)
        let readyAt = try #require(states.firstIndex { $0.hasPrefix("READY=1") })
        let stoppingAt = try #require(states.firstIndex { $0.hasPrefix("STOPPING=1") })
        #expect(readyAt < stoppingAt)
        #expect(states.last?.hasPrefix("STOPPING=1") == true, "STOPPING=1 is the last state message: \(states)")
        #expect(hived.notify?.messages.last?.hasPrefix("STOPPING=1") == true, "no EXTEND_TIMEOUT_USEC for a quick stop")
    }

    @Test func sigintStopsLikeSigterm() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("hived.yaml", Self.threeProbes(directory))
        let hived = try HivedProcess(["--config", config], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGINT)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: directory.file("events")).modules(receiving: "teardown") == ["cache", "web", "store"])
    }

    @Test func failedInitRollsBackAndExits70NamingTheModule() async throws {
        let directory = try TestDirectory()
        let config = try directory.write(
            "hived.yaml", Self.threeProbes(directory, settings: ", fail_on: [init]"))
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        #expect(try await hived.exitStatus() == 70)
        let file = try ProbeFile(path: directory.file("events"))
        #expect(file.events == [
            "store.setup", "web.setup", "cache.setup", "store.init", "web.init",
            "cache.teardown", "store.teardown",
        ], "init stops at the failure; the modules set up are torn down in reverse; web gets nothing more")
        let states = try #require(hived.notify?.stateMessages)
        #expect(!states.contains { $0.contains("READY=1") })
        let failure = try #require(states.last)
        #expect(failure.contains("STATUS=failed"))
        #expect(failure.contains("web"))
        #expect(failure.contains("init"))
        #expect(hived.stderr.contains("web"))
    }

    @Test func unreadableProbeFileFailsSetupWithErrno() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("hived.yaml", """
            modules:
              - {name: lost, type: probe, settings: {path: /nonexistent/dir/events}}
            """)
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        #expect(try await hived.exitStatus() == 70)
        let failure = try #require(hived.notify?.stateMessages.last)
        #expect(failure.contains("ERRNO=2"), "ENOENT passed to systemd: \(failure)")
        #expect(failure.contains("lost"))
    }

    @Test func invalidConfigurationExits78WithFileAndLine() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("hived.yaml", """
            modules:
              - name: a
                type: no-such-type
            """)
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        #expect(try await hived.exitStatus() == 78)
        #expect(hived.stderr.contains("\(config):3"), "stderr: \(hived.stderr)")
    }

    @Test func runsWithoutNotifySocketAndWithABadOne() async throws {
        for environment in [[:], ["NOTIFY_SOCKET": "/nonexistent/notify.sock"]] {
            let directory = try TestDirectory()
            let config = try directory.write("hived.yaml", Self.threeProbes(directory))
            let hived = try HivedProcess(["run", "--config", config], in: directory, notify: false, environment: environment)
            _ = try await ProbeFile.waitFor(directory.file("events"), "ready") { $0.event == "ready" && $0.module == "cache" }
            hived.signal(SIGTERM)
            #expect(try await hived.exitStatus() == 0)
            #expect(try ProbeFile(path: directory.file("events")).modules(receiving: "teardown") == ["cache", "web", "store"])
        }
    }

    @Test func secondSigtermDoesNotAbandonTheTeardownOrder() async throws {
        let directory = try TestDirectory()
        let config = try directory.write(
            "hived.yaml", Self.threeProbes(directory, settings: ", stall_on: {teardown: 1s}"))
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGTERM)
        _ = try await ProbeFile.waitFor(directory.file("events"), "web teardown") { $0.module == "web" && $0.event == "teardown" }
        hived.signal(SIGTERM)
        hived.signal(SIGINT)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: directory.file("events")).modules(receiving: "teardown") == ["cache", "web", "store"])
    }

    @Test func stopBudgetExceededExits75() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let config = try directory.write("hived.yaml", """
            budgets: {event: 30s, stop: 1s}
            modules:
              - {name: slow, type: probe, settings: {path: \(events), stall_on: {teardown: 20s}}}
            """)
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus(timeout: .seconds(10)) == 75)
        #expect(hived.stderr.contains("stop budget"))
    }

    @Test func sigtermDuringStartStopsWithoutReportingReady() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let config = try directory.write("hived.yaml", """
            modules:
              - {name: first, type: probe, settings: {path: \(events)}}
              - {name: slow, type: probe, settings: {path: \(events), stall_on: {init: 1s}}}
            """)
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        _ = try await ProbeFile.waitFor(events, "slow init") { $0.module == "slow" && $0.event == "init" }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let states = try #require(hived.notify?.stateMessages)
        #expect(!states.contains { $0.hasPrefix("READY=1") }, "\(states)")
        #expect(states.contains { $0.hasPrefix("STOPPING=1") })
        #expect(try ProbeFile(path: events).events == [
            "first.setup", "slow.setup", "first.init", "slow.init",
            "first.terminate", "slow.terminate", "slow.teardown", "first.teardown",
        ])
    }

    @Test func sigtermDuringAHungStartExits75WithinTheStopBudget() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let config = try directory.write("hived.yaml", """
            budgets: {event: 200ms, stop: 1s}
            modules:
              - {name: hung, type: probe, settings: {path: \(events), stall_on: {init: 60s}}}
            """)
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        _ = try await ProbeFile.waitFor(events, "hung init") { $0.event == "init" }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus(timeout: .seconds(10)) == 75)
        let status = try #require(hived.notify?.stateMessages.last)
        #expect(status.contains("hung"), "the stalled module is named: \(status)")
    }
}
