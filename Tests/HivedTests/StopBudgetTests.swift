import Foundation
import Testing

/// The stop budget is absolute: from the first SIGTERM, hived exits within `budgets.stop`
/// + 100 ms whatever holds it up, even hooks that block every thread of Swift's
/// cooperative pool, and names what was stuck.
@Suite(.serialized) struct StopBudgetTests {
    /// How late the test may see an exit the contract bounds at budget + 100 ms: the test
    /// polls every 5 ms on a loaded machine.
    static let observation: Duration = .milliseconds(400)

    /// As many modules as the cooperative pool has threads (one per CPU), at least two.
    static var poolWidth: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    @Test func teardownsBlockingEveryPoolThreadEndIn75WithinTheBudgetNamingThem() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let count = Self.poolWidth
        let stopMilliseconds = 250 * count + 1500
        let stopBudget = Duration.milliseconds(stopMilliseconds)
        let modules = (0..<count).map {
            "  - {name: block\($0), type: probe, budget: 200ms, settings: {path: \(events), block_on: {teardown: 60s}}}"
        }
        let path = try directory.write("hived.yaml", """
            budgets: {event: 200ms, stop: \(stopMilliseconds)ms}
            modules:
            \(modules.joined(separator: "\n"))
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        let sent = ContinuousClock.now
        hived.signal(SIGTERM)
        let exited = try await hived.waitForExit(timeout: stopBudget + .seconds(10))
        let elapsed = exited - sent
        #expect(try await hived.exitStatus() == 75)
        #expect(elapsed >= stopBudget - .milliseconds(50), "not before the budget: \(elapsed)")
        #expect(elapsed <= stopBudget + .milliseconds(100) + Self.observation, "budget + 100 ms: \(elapsed)")
        let file = try ProbeFile(path: events)
        #expect(Set(file.modules(receiving: "teardown")) == Set((0..<count).map { "block\($0)" }), "every teardown began")
        let status = try #require(hived.notify?.stateMessages.last)
        for index in 0..<count {
            #expect(status.contains("module 'block\(index)'"), "STATUS names every blocked module: \(status)")
            #expect(hived.stderr.contains("module 'block\(index)'"), "the log too")
        }
        #expect(status.contains("abandoned in teardown, still running"), "\(status)")
    }

    @Test func aStartBlockingEveryPoolThreadEndsIn75WithinTheBudget() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let count = Self.poolWidth
        let modules = (0..<count).map {
            "  - {name: hung\($0), type: probe, async: true, settings: {path: \(events), block_on: {init: 60s}}}"
        }
        let path = try directory.write("hived.yaml", """
            budgets: {event: 200ms, stop: 1s}
            modules:
            \(modules.joined(separator: "\n"))
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        _ = try await ProbeFile.waitFor(events, "every init", until: { file in
            file.modules(receiving: "init").count == count
        })
        let sent = ContinuousClock.now
        hived.signal(SIGTERM)
        let exited = try await hived.waitForExit(timeout: .seconds(15))
        #expect(try await hived.exitStatus() == 75)
        #expect(exited - sent <= .milliseconds(1100) + Self.observation, "\(exited - sent)")
        let status = try #require(hived.notify?.stateMessages.last)
        #expect(status.contains("exceeded while starting"), "\(status)")
        for index in 0..<count { #expect(status.contains("module 'hung\(index)'"), "\(status)") }
    }

    @Test func aStopQueuedBehindABlockedEventEndsIn75WithinTheBudget() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", """
            budgets: {event: 200ms, stop: 1s}
            signals: {SIGUSR1: "custom:hang"}
            modules:
              - {name: a, type: probe, async: true, settings: {path: \(events), block_on: {"custom:hang": 60s}}}
              - {name: b, type: probe, async: true, settings: {path: \(events), block_on: {"custom:hang": 60s}}}
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGUSR1)
        _ = try await ProbeFile.waitFor(events, "both hang", until: { file in
            file.lines.filter { $0.name == "hang" }.count == 2
        })
        let sent = ContinuousClock.now
        hived.signal(SIGTERM)
        let exited = try await hived.waitForExit(timeout: .seconds(15))
        #expect(try await hived.exitStatus() == 75)
        #expect(exited - sent <= .milliseconds(1100) + Self.observation, "\(exited - sent)")
        let status = try #require(hived.notify?.stateMessages.last)
        #expect(status.contains("exceeded while waiting for an event"), "\(status)")
        #expect(status.contains("module 'a' stalled in custom"), "\(status)")
    }
}

extension HivedProcess {
    /// Waits until the process is gone; returns when that was seen (polling every 5 ms).
    func waitForExit(timeout: Duration) async throws -> ContinuousClock.Instant {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                kill(pid, SIGKILL)
                throw TestFailure("hived did not exit within \(timeout); stderr:\n\(stderr)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return ContinuousClock.now
    }
}

/// A stop preempts what is queued: events waiting behind the current one are dropped, and
/// every module still gets `terminate` and `teardown`.
@Suite(.serialized) struct StopPreemptsTests {
    @Test func twentyThousandSignalsThenSigtermStillTerminateAndTearDownEveryModule() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", """
            budgets: {event: 1s, stop: 10s}
            signals: {SIGUSR1: "custom:tick"}
            modules:
              - {name: a, type: probe, settings: {path: \(events), stall_on: {"custom:tick": 10ms}}}
              - {name: b, type: probe, async: true, settings: {path: \(events), stall_on: {"custom:tick": 10ms}}}
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        for _ in 0..<20_000 { hived.signal(SIGUSR1) }
        _ = try await ProbeFile.waitFor(events, "a tick") { $0.name == "tick" }
        let sent = ContinuousClock.now
        hived.signal(SIGTERM)
        let exited = try await hived.waitForExit(timeout: .seconds(30))
        #expect(try await hived.exitStatus() == 0)
        #expect(exited - sent < .seconds(10), "within the stop budget: \(exited - sent)")
        let file = try ProbeFile(path: events)
        #expect(file.modules(receiving: "terminate").sorted() == ["a", "b"])
        #expect(file.modules(receiving: "teardown") == ["b", "a"])
        let ticks = file.lines.filter { $0.name == "tick" }.count
        #expect(ticks < 2_000, "signals coalesce while one event waits: \(ticks) delivered")
    }
}
