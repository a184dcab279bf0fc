import Foundation
import TestSupport
import Testing

/// The stop budget is absolute: from the first SIGTERM, hived exits within `budgets.stop`
/// + 100 ms whatever holds it up, even hooks that block every thread of Swift's
/// cooperative pool, and names what was stuck.
@Suite(.serialized) struct StopBudgetTests {
    /// How far past `budgets.stop` the exit may come, from the SIGTERM: the contract's
    /// 100 ms, with nothing added for a loaded machine. Both instants are the kernel's (see
    /// ``TimedStop``). Beside two CPU hogs and the stop tests run ten times (and beside the
    /// whole first test process), hived's exit came at most 21 ms past the budget plus a
    /// signal that once reached it 80 ms after `kill(2)`: its stop guard runs above ordinary
    /// threads and raises the others before `_exit` (as root, as the tests run).
    static let pastBudget: Duration = .milliseconds(100)
    /// From the report (`STATUS=… exceeded`, which the stop guard sends itself at the
    /// budget) to the exit: the contract's 100 ms past the budget. It holds the guard's
    /// grace for the log line (`StopGuard.reportGrace`, 50 ms), then `_exit`, which ends
    /// every thread of hived. Measured beside two CPU hogs: at most 12 ms (27 ms with the
    /// guard not raised); the grace alone (50 ms) was missed by 1 to 3 ms at a load of 8
    /// to 10 on 2 cores (four hogs and two other test loops), where even 100 ms once was not
    /// enough (130 ms): no bound holds on a machine that loaded.
    static let reportToExit: Duration = .milliseconds(100)

    /// As many modules as the cooperative pool has threads (one per CPU), at least two.
    static var poolWidth: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    /// A stop timed on the kernel's clocks, from just before `kill(SIGTERM)`: to the exit,
    /// as the child's pidfd showed it, and to the stop budget's report (`STATUS=… exceeded`),
    /// as the notify socket received it.
    struct TimedStop {
        let status: Int32
        let toExit: Duration
        let toReport: Duration?
        /// The last `STATUS=` hived sent.
        let lastStatus: String

        /// Stops `hived` with `SIGTERM` and times it.
        init(_ hived: HivedProcess, timeout: Duration) async throws {
            let (sent, exited) = try await hived.watchExit(after: SIGTERM, timeout: timeout)
            toExit = exited - sent
            status = try await hived.exitStatus()
            let datagrams = hived.notify?.datagrams ?? []
            toReport = datagrams.last { $0.text.contains("exceeded") }.map { $0.received - sent }
            lastStatus = hived.notify?.stateMessages.last ?? ""
        }

        /// Checks the contract: the report when the budget runs out (not before), the exit
        /// within the budget + 100 ms.
        func expectWithin(_ budget: Duration, sourceLocation: SourceLocation = #_sourceLocation) {
            let report = toReport ?? .zero
            #expect(toReport != nil, "a report of the exceeded budget: \(lastStatus)", sourceLocation: sourceLocation)
            #expect(report >= budget, "not before the budget: \(report)", sourceLocation: sourceLocation)
            #expect(toExit >= report, "the report comes before the exit", sourceLocation: sourceLocation)
            #expect(
                toExit - report <= StopBudgetTests.reportToExit, "from the report to the exit: \(toExit - report)",
                sourceLocation: sourceLocation)
            #expect(
                toExit <= budget + StopBudgetTests.pastBudget,
                "budget + 100 ms: \(toExit) (report at \(report))", sourceLocation: sourceLocation)
        }
    }

    @Test func teardownsBlockingEveryPoolThreadEndIn75WithinTheBudgetNamingThem() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let count = Self.poolWidth
        // Each teardown is abandoned after its module's budget (a second: the other hooks,
        // which do nothing, share it on a loaded machine), and the next one begins; the stop
        // budget leaves room for all of them to begin.
        let stopMilliseconds = 1100 * count + 1500
        let modules = (0..<count).map {
            "  - {name: block\($0), type: probe, budget: 1s, settings: {path: \(events), block_on: {teardown: 60s}}}"
        }
        let path = try directory.write("hived.yaml", """
            budgets: {event: 1s, stop: \(stopMilliseconds)ms}
            modules:
            \(modules.joined(separator: "\n"))
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        let stop = try await TimedStop(hived, timeout: .milliseconds(stopMilliseconds) + .seconds(10))
        #expect(stop.status == 75)
        stop.expectWithin(.milliseconds(stopMilliseconds))
        let file = try ProbeFile(path: events)
        #expect(Set(file.modules(receiving: "teardown")) == Set((0..<count).map { "block\($0)" }), "every teardown began")
        for index in 0..<count {
            #expect(stop.lastStatus.contains("module 'block\(index)'"), "STATUS names every blocked module: \(stop.lastStatus)")
            #expect(hived.stderr.contains("module 'block\(index)'"), "the log too")
        }
        #expect(stop.lastStatus.contains("abandoned in teardown, still running"), "\(stop.lastStatus)")
    }

    @Test func aStartBlockingEveryPoolThreadEndsIn75WithinTheBudget() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let count = Self.poolWidth
        let modules = (0..<count).map {
            "  - {name: hung\($0), type: probe, async: true, settings: {path: \(events), block_on: {init: 60s}}}"
        }
        // The event budget does not matter here (init blocks until the process ends); a
        // generous one keeps setup, which does nothing, from failing the start first.
        let path = try directory.write("hived.yaml", """
            budgets: {event: 5s, stop: 1s}
            modules:
            \(modules.joined(separator: "\n"))
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        _ = try await ProbeFile.waitFor(events, "every init", until: { file in
            file.modules(receiving: "init").count == count
        })
        let stop = try await TimedStop(hived, timeout: .seconds(15))
        #expect(stop.status == 75)
        stop.expectWithin(.seconds(1))
        #expect(stop.lastStatus.contains("exceeded while starting"), "\(stop.lastStatus)")
        for index in 0..<count { #expect(stop.lastStatus.contains("module 'hung\(index)'"), "\(stop.lastStatus)") }
    }

    @Test func aStopQueuedBehindABlockedEventEndsIn75WithinTheBudget() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        // Both hooks block before the SIGTERM, so by the stop budget's end they have run
        // past their event budget: stalled.
        let path = try directory.write("hived.yaml", """
            budgets: {event: 1s, stop: 2s}
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
        let stop = try await TimedStop(hived, timeout: .seconds(15))
        #expect(stop.status == 75)
        stop.expectWithin(.seconds(2))
        #expect(stop.lastStatus.contains("exceeded while waiting for an event"), "\(stop.lastStatus)")
        #expect(stop.lastStatus.contains("module 'a' stalled in custom"), "\(stop.lastStatus)")
    }

    @Test func aStopDuringAStuckReloadReadEndsIn75NamingTheFile() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let text = "budgets: {event: 1s, stop: 1s}\nmodules: [{name: a, type: probe, settings: {path: \(events)}}]\n"
        let path = try directory.write("hived.yaml", text)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        // Reading the new file builds probe b, which waits for a file nobody creates, as a
        // read of a hung mount would wait.
        try directory.write("hived.yaml", """
            budgets: {event: 1s, stop: 1s}
            modules:
              - {name: a, type: probe, settings: {path: \(events)}}
              - {name: b, type: probe, settings: {path: \(events), build_until: \(directory.file("never"))}}
            """)
        hived.signal(SIGHUP)
        _ = try await ProbeFile.waitFor(events, "b waiting to be built") { $0.module == "b" && $0.event == "build" }
        let stop = try await TimedStop(hived, timeout: .seconds(15))
        #expect(stop.status == 75)
        stop.expectWithin(.seconds(1))
        #expect(stop.lastStatus.contains("exceeded while reading the configuration: reading \(path)"), "\(stop.lastStatus)")
        #expect(hived.stderr.contains("exceeded while reading the configuration: reading \(path)"), "the log too")
        #expect(try ProbeFile(path: events).events == ["a.setup", "a.init", "a.ready", "b.build"], "nothing was applied")
        let states = try #require(hived.notify).stateMessages.filter { !$0.hasPrefix("STATUS=") }
        #expect(states.last?.hasPrefix("STOPPING=1\nSTATUS=stop budget of 1.0s exceeded") == true,
            "STOPPING=1, held back for the reload that never ended, goes with the report: \(states)")
    }

    /// A reload whose added module never finishes `init`: the stop waits behind it until the
    /// budget runs out, and the report says the daemon was reloading, naming the module.
    @Test func aStopBehindAStuckReloadEndsIn75SayingItWasReloading() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let text = "budgets: {event: 30s, stop: 1s}\nmodules:\n  - {name: a, type: probe, settings: {path: \(events)}}\n"
        let path = try directory.write("hived.yaml", text)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        try directory.write("hived.yaml", text + """
              - {name: b, type: probe, settings: {path: \(events), stall_until: {init: \(directory.file("never"))}}}
            """)
        hived.signal(SIGHUP)
        _ = try await ProbeFile.waitFor(events, "b.init") { $0.module == "b" && $0.event == "init" }
        let stop = try await TimedStop(hived, timeout: .seconds(15))
        #expect(stop.status == 75)
        stop.expectWithin(.seconds(1))
        #expect(stop.lastStatus.contains("exceeded while reloading: module 'b' still in init"), "\(stop.lastStatus)")
        #expect(stop.lastStatus.hasPrefix("STOPPING=1\n"), "\(stop.lastStatus)")
    }

    /// A first read that never ends (a hung mount): the stop budget the daemon knows before
    /// reading its file (`HIVED_BUDGET_STOP`, else the default) still ends it, naming the file.
    @Test func aStopWhileTheFirstReadIsStuckEndsIn75NamingTheFile() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", """
            modules: [{name: b, type: probe, settings: {path: \(events), build_until: \(directory.file("never"))}}]
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory, environment: ["HIVED_BUDGET_STOP": "1s"])
        _ = try await ProbeFile.waitFor(events, "b waiting to be built") { $0.module == "b" && $0.event == "build" }
        let stop = try await TimedStop(hived, timeout: .seconds(15))
        #expect(stop.status == 75)
        stop.expectWithin(.seconds(1))
        let states = try #require(hived.notify).stateMessages
        #expect(states.first { $0.hasPrefix("STOPPING=1") } == "STOPPING=1\nSTATUS=stopping: waiting for the configuration file to be read")
        #expect(stop.lastStatus.contains("exceeded while reading the configuration: reading \(path)"), "\(stop.lastStatus)")
        #expect(!states.contains { $0.hasPrefix("READY=1") })
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
        let took = try await hived.timeExit(after: SIGTERM, timeout: .seconds(30))
        #expect(try await hived.exitStatus() == 0)
        #expect(took < .seconds(10), "within the stop budget: \(took)")
        let file = try ProbeFile(path: events)
        #expect(file.modules(receiving: "terminate").sorted() == ["a", "b"])
        #expect(file.modules(receiving: "teardown") == ["b", "a"])
        let ticks = file.lines.filter { $0.name == "tick" }.count
        #expect(ticks < 2_000, "signals coalesce while one event waits: \(ticks) delivered")
    }
}
