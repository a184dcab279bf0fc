import Foundation
import TestSupport
import Testing

/// hived started as systemd starts it: the notification sequence, the event order in
/// the probe files, and the exit status.
@Suite(.serialized) struct StartAndStopTests {
    /// Three probes writing one shared file: store (basic/100), web (normal/10, async) and
    /// cache (normal/10). `settings` are added to web's; `asyncWeb: false` makes every
    /// module sync, for an exact order throughout.
    static func threeProbes(
        _ directory: TestDirectory, extra: String = "", settings: String = "", asyncWeb: Bool = true
    ) -> String {
        let events = directory.file("events")
        return """
            environment: testing
            budgets: {event: 30s, stop: 60s}
            \(extra)
            modules:
              - name: web
                type: probe
                priority: 10
                async: \(asyncWeb)
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

    /// The modules that received `event` in `file`, with web and cache (one level, web
    /// async, so they run side by side) as a set: store (basic) first, then those two.
    static func levels(_ file: ProbeFile, _ event: String) -> [Set<String>] {
        let modules = file.modules(receiving: event)
        return [Set(modules.prefix(1)), Set(modules.dropFirst())]
    }

    @Test func startNotifiesReadyAfterInitThenStopsInReverseOrder() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("hived.yaml", Self.threeProbes(directory))
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        let readyIndex = try await hived.waitForReady()
        let notify = try #require(hived.notify)
        let ready = notify.datagrams[readyIndex]
        #expect(ready.text.contains("STATUS=running 3 modules"))
        let atReady = try ProbeFile(path: directory.file("events"))
        let started = atReady.lines.prefix(6)
        #expect(started.prefix(3).allSatisfy { $0.event == "setup" }, "every setup before any init: \(atReady.events)")
        #expect(started.suffix(3).allSatisfy { $0.event == "init" }, "\(atReady.events)")
        #expect(started.allSatisfy { $0.time <= ready.received }, "READY=1 after the last init: \(atReady.events)")
        try await waitUntil("every module's ready") {
            try ProbeFile(path: directory.file("events")).modules(receiving: "ready").count == 3
        }

        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let file = try ProbeFile(path: directory.file("events"))
        for event in ["setup", "init", "ready", "terminate"] {
            #expect(Set(file.modules(receiving: event)) == ["store", "web", "cache"], "\(file.events)")
        }
        #expect(file.modules(receiving: "teardown") == ["cache", "web", "store"], "one at a time, in exact reverse")
        let lastTerminate = try #require(file.events.lastIndex { $0.hasSuffix(".terminate") })
        let firstTeardown = try #require(file.events.firstIndex { $0.hasSuffix(".teardown") })
        #expect(lastTerminate < firstTeardown)

        let states = try #require(hived.notify?.stateMessages)
        #expect(states.first == "STATUS=starting 3 modules", "the first word to systemd: \(states)")
        let readyAt = try #require(states.firstIndex { $0.hasPrefix("READY=1") })
        let stoppingAt = try #require(states.firstIndex { $0.hasPrefix("STOPPING=1") })
        #expect(readyAt < stoppingAt)
        #expect(states.last?.hasPrefix("STOPPING=1") == true, "STOPPING=1 is the last state message: \(states)")
    }

    @Test func levelsAreBarriersForAnAsyncModuleToo() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("hived.yaml", Self.threeProbes(directory))
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        try await hived.waitForReady()
        try await waitUntil("every module's ready") {
            try ProbeFile(path: directory.file("events")).modules(receiving: "ready").count == 3
        }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let file = try ProbeFile(path: directory.file("events"))
        // store (basic) finishes each event before web (normal, async) or cache receives it.
        for event in ["setup", "init", "ready", "terminate"] {
            #expect(Self.levels(file, event) == [["store"], ["web", "cache"]], "\(event): \(file.events)")
        }
    }

    @Test func theDaemonsOwnThreadsAreNamedAfterTheFrameworkNotTheDaemon() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("hived.yaml", Self.threeProbes(directory))
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        try await hived.waitForReady()
        let tasks = "/proc/\(hived.pid)/task"
        let names = try FileManager.default.contentsOfDirectory(atPath: tasks).compactMap {
            try? String(contentsOfFile: "\(tasks)/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // A daemon of another name built on HiveDaemon runs the same threads.
        #expect(names.contains("hive-notify"), "\(names)")
        #expect(!names.contains { $0.hasPrefix("hived-") }, "\(names)")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
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
            "hived.yaml", Self.threeProbes(directory, settings: ", fail_on: [init]", asyncWeb: false))
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
            "hived.yaml", Self.threeProbes(directory, settings: ", stall_until: {teardown: \(directory.file("release"))}"))
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGTERM)
        _ = try await ProbeFile.waitFor(directory.file("events"), "web teardown") { $0.module == "web" && $0.event == "teardown" }
        // Both arrive while web's teardown is held open.
        try await hived.deliver(SIGTERM)
        try await hived.deliver(SIGINT)
        directory.release("release")
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: directory.file("events")).modules(receiving: "teardown") == ["cache", "web", "store"])
        #expect(!hived.stderr.contains("abandoned"), "\(hived.stderr)")
    }

    @Test func aLongStopAsksSystemdForMoreTimeUntilItEnds() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let config = try directory.write("hived.yaml", """
            budgets: {event: 60s, stop: 60s}
            modules:
              - {name: slow, type: probe, settings: {path: \(events), stall_until: {teardown: \(directory.file("release"))}}}
            """)
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        let notify = try #require(hived.notify)
        try await hived.waitForReady()
        hived.signal(SIGTERM)
        _ = try await ProbeFile.waitFor(events, "teardown") { $0.event == "teardown" }
        // The teardown works within its budget: systemd is asked, again and again, to wait
        // for what is left of the stop budget (plus a margin), not for TimeoutStopSec=.
        let extensions = try await notify.waitForCount(2, startingWith: "EXTEND_TIMEOUT_USEC=")
        let microseconds = extensions.compactMap { UInt64($0.dropFirst("EXTEND_TIMEOUT_USEC=".count)) }
        #expect(microseconds.count == 2, "\(extensions)")
        for value in microseconds {
            #expect(value > 5_000_000 && value <= 65_000_000, "what is left of 60 s, plus 5 s: \(value) µs")
        }
        #expect(microseconds[1] < microseconds[0], "the stop budget runs down: \(microseconds)")
        let stopping = try #require(notify.messages.firstIndex { $0.hasPrefix("STOPPING=1") })
        let first = try #require(notify.messages.firstIndex { $0.hasPrefix("EXTEND_TIMEOUT_USEC=") })
        #expect(stopping < first)
        directory.release("release")
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: events).events.suffix(2) == ["slow.terminate", "slow.teardown"])
    }

    /// `stall_on` waits politely (the cancellation at the budget ends it); `block_on` holds
    /// its thread until the process ends: either way the stop is clean, exit 0.
    @Test(arguments: ["stall_on", "block_on"])
    func aHookAbandonedPastItsBudgetStillEndsInExitZero(stall: String) async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let config = try directory.write("hived.yaml", """
            budgets: {event: 30s, stop: 60s}
            modules:
              - {name: keeper, type: probe, priority: 10, settings: {path: \(events)}}
              - {name: stuck, type: probe, budget: 1s, settings: {path: \(events), \(stall): {teardown: 10m}}}
            """)
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0, "\(hived.stderr)")
        #expect(try ProbeFile(path: events).modules(receiving: "teardown") == ["stuck", "keeper"],
                "the teardowns after the abandoned one still run")
        let abandoned = hived.stderr.split(separator: "\n").filter { $0.contains("teardown: abandoned after its budget of 1") }
        #expect(abandoned.count == 1 && abandoned[0].contains("[stuck]"), "logged by module and event: \(hived.stderr)")
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
              - {name: slow, type: probe, settings: {path: \(events), stall_until: {init: \(directory.file("release"))}}}
            """)
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        let notify = try #require(hived.notify)
        _ = try await ProbeFile.waitFor(events, "slow init") { $0.module == "slow" && $0.event == "init" }
        hived.signal(SIGTERM)
        // STOPPING=1 goes out at once, while init is still held open.
        let stopping = try await notify.waitFor("STOPPING=1") { $0.hasPrefix("STOPPING=1") }
        #expect(notify.messages[stopping].contains("waiting for start-up to finish"), "\(notify.messages[stopping])")
        directory.release("release")
        #expect(try await hived.exitStatus() == 0)
        let states = notify.stateMessages
        #expect(!states.contains { $0.hasPrefix("READY=1") }, "\(states)")
        #expect(try ProbeFile(path: events).events == [
            "first.setup", "slow.setup", "first.init", "slow.init",
            "first.terminate", "slow.terminate", "slow.teardown", "first.teardown",
        ])
    }

    @Test func sigtermDuringAHungStartExits75WithinTheStopBudget() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let config = try directory.write("hived.yaml", """
            budgets: {event: 30s, stop: 1s}
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
