import HiveKit
import Synchronization
import TestSupport
import Testing

@Suite struct BudgetTests {
    // Budgets of a second: the stalled module's other hooks do nothing, but on a loaded
    // 2-core machine even a no-op hook can wait a few hundred milliseconds for a thread.
    @Test func stalledTeardownIsAbandonedSoLaterModulesStillTearDown() async throws {
        let recorder = Recorder()
        let logs = LogStore()
        let hive = try makeHive([
            (ScriptedModule(recorder), ModuleDescriptor(name: "first", priority: 30)),
            (ScriptedModule(recorder, [.teardown: .sleep(.seconds(60))]),
                ModuleDescriptor(name: "stuck", priority: 20, budget: .seconds(1))),
            (ScriptedModule(recorder), ModuleDescriptor(name: "last", priority: 10)),
        ], logs: logs)
        try await hive.start()
        try await hive.send(.ready)
        let failures = await hive.stop()
        #expect(hive.phase == .stopped)
        // Reverse order: last, stuck (abandoned), first.
        #expect(recorder.modules(for: "teardown") == ["last", "stuck", "first"])
        #expect(failures.count == 1)
        #expect(failures.first?.code == .handlerTimedOut)
        #expect(failures.first?.module == "stuck")
        #expect(failures.first?.event == .teardown)
        #expect(logs.all.contains { $0.level == .error && $0.metadata["module"] == "stuck" && $0.metadata["event"] == "teardown" && $0.message.contains("abandoned") })
        #expect(hive.profile.stats(module: "stuck", event: .teardown)?.lastOutcome == .abandoned)
        #expect(hive.profile.stats(module: "stuck", event: .teardown)?.abandoned == 1)
        #expect(hive.stalledHandlers().isEmpty)
    }

    @Test func aHandlerThatIgnoresCancellationIsStillAbandoned() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder), ModuleDescriptor(name: "a", priority: 1)),
            (ScriptedModule(recorder, [.terminate: .hang(.seconds(5))]),
                ModuleDescriptor(name: "blocked", budget: .seconds(1))),
        ])
        try await hive.start()
        let failures = await hive.stop()
        #expect(failures.map(\.module) == ["blocked"], "\(failures)")
        #expect(failures.first?.event?.kind == .terminate && failures.first?.code == .handlerTimedOut, "\(failures)")
        #expect(recorder.modules(for: "teardown") == ["blocked", "a"])
    }

    @Test func theDefaultBudgetAppliesWhenAModuleNamesNone() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder, [.teardown: .sleep(.seconds(60))]), ModuleDescriptor(name: "stuck")),
        ], budget: .seconds(1))
        try await hive.start()
        let failures = await hive.stop()
        #expect(failures.first?.code == .handlerTimedOut)
        #expect(failures.first?.description.contains("budget") == true)
    }

    @Test func stalledHandlersReportsAHandlerPastItsBudgetAndItIsLogged() async throws {
        let logs = LogStore()
        let release = Latch()
        let hive = try makeHive([
            (ScriptedModule(Recorder(), [
                .custom: .run { _ in _ = await release.wait(timeout: .seconds(20)) },
            ]), ModuleDescriptor(name: "slow", budget: .milliseconds(100))),
            (ScriptedModule(Recorder()), ModuleDescriptor(name: "fine")),
        ], budget: .milliseconds(100), logs: logs)
        try await hive.start()
        #expect(hive.stalledHandlers().isEmpty)
        let delivery = Task { try await hive.send(.custom(name: "long")) }
        let stalled = await eventually { !hive.stalledHandlers().isEmpty }
        #expect(stalled)
        let stall = try #require(hive.stalledHandlers().first)
        #expect(stall.module == "slow")
        #expect(stall.event == .custom)
        #expect(stall.budget == .milliseconds(100))
        #expect(stall.elapsed > .milliseconds(100))
        #expect(stall.description.contains("module 'slow' stalled in custom"))
        // The monitor logs it once, with module and event.
        let logged = await eventually(wakingOn: logs) {
            logs.all.contains { $0.level == .warning && $0.metadata["module"] == "slow" && $0.metadata["event"] == "custom" }
        }
        #expect(logged)
        // A stall does not abandon an ordinary event: it completes once the hook returns.
        release.open()
        let report = try await delivery.value
        #expect(report.failures.isEmpty)
        #expect(hive.stalledHandlers().isEmpty)
        #expect(logs.all.filter { $0.level == .warning && $0.metadata["module"] == "slow" }.count == 1)
        await hive.stop()
    }

    @Test func anAbandonedHookIsListedUntilItReturns() async throws {
        let release = Latch()
        let hive = try makeHive([
            (ScriptedModule(Recorder(), [
                .teardown: .run { _ in
                    // Ignores cancellation until the test opens the latch (at most 20 s).
                    _ = await release.wait(timeout: .seconds(20))
                },
            ]), ModuleDescriptor(name: "slow", budget: .milliseconds(100))),
        ])
        try await hive.start()
        await hive.stop()
        let abandoned = try #require(hive.abandonedHandlers().first)
        #expect(abandoned.module == "slow" && abandoned.event == .teardown && abandoned.isAbandoned)
        #expect(abandoned.description.contains("module 'slow' abandoned in teardown, still running after"))
        #expect(hive.runningHandlers().isEmpty, "no longer in flight")
        release.open()
        #expect(await eventually { hive.abandonedHandlers().isEmpty })
    }

    /// A hook past its budget is logged when the budget runs out (within max(10 ms, 5 %
    /// of the budget), and 60 ms here for a loaded machine), once per call, with module,
    /// event and elapsed time; `stalledHandlers()` lists it from that instant.
    @Test func everyStallIsLoggedOnceAtItsBudget() async throws {
        let logs = LogStore()
        let starts = Mutex<[(module: String, at: ContinuousClock.Instant)]>([])
        let stall: @Sendable (ModuleContext) async throws -> Void = { context in
            let now = ContinuousClock.now
            starts.withLock { $0.append((context.moduleName, now)) }
            try await Task.sleep(for: .milliseconds(600))
        }
        let hive = try makeHive([
            (ScriptedModule(Recorder(), [.custom: .run(stall)]),
                ModuleDescriptor(name: "a", isAsync: true, budget: .milliseconds(500))),
            (ScriptedModule(Recorder(), [.custom: .run(stall)]),
                ModuleDescriptor(name: "b", isAsync: true, budget: .milliseconds(500))),
        ], logs: logs)
        try await hive.start()
        var begins: [ContinuousClock.Instant] = []
        for round in 0..<3 {
            begins.append(.now)
            let delivery = Task { try await hive.send(.custom(name: "round\(round)")) }
            #expect(await eventually { hive.stalledHandlers().count == 2 })
            let seen = ContinuousClock.now
            let stalls = logs.all.filter { $0.level == .warning && $0.message.hasPrefix("still running") }
            #expect(stalls.count == 2 * (round + 1), "a stall is logged by the time stalledHandlers() lists it")
            #expect(seen - begins[round] >= .milliseconds(500))
            _ = try await delivery.value
        }
        let stalls = logs.all.filter { $0.level == .warning && $0.message.hasPrefix("still running") }
        #expect(stalls.count == 6, "six stalls, six lines: \(stalls.map(\.message))")
        for record in stalls {
            #expect(["a", "b"].contains(record.metadata["module"]))
            #expect(record.metadata["event"] == "custom")
            #expect(record.message.hasSuffix("past its budget of 500.0ms"), "\(record.message)")
            // The budget runs from the call, which lies between the round's begin and the
            // hook body's start (later on a loaded machine: an async module's child task
            // has to be scheduled first). Not before the first, soon after the second.
            let begin = try #require(begins.last { $0 <= record.at })
            #expect(record.at >= begin + .milliseconds(500), "logged before the budget ran out")
            let start = starts.withLock { $0 }.filter { $0.module == record.metadata["module"] && $0.at <= record.at }.last
            let late = try #require(start).at + .milliseconds(500)
            #expect(record.at - late < .milliseconds(60), "logged \(record.at - late) after the budget ran out")
        }
        #expect(hive.stalledHandlers().isEmpty, "no longer stalled once the hooks returned")
        #expect(hive.profile.stats(module: "a", event: .custom)?.stalls == 3)
        await hive.stop()
    }

    /// A module joining with a budget smaller than any before it is still timed by its own.
    @Test func aSmallerBudgetThatJoinsLaterIsTimedToo() async throws {
        let logs = LogStore()
        let hive = try makeHive([(ScriptedModule(Recorder()), ModuleDescriptor(name: "first"))], logs: logs)
        try await hive.start()
        try await hive.register(ScriptedModule(Recorder(), [.custom: .sleep(.milliseconds(400))]),
            as: ModuleDescriptor(name: "quick", budget: .milliseconds(300)))
        let begin = ContinuousClock.now
        try await hive.send(.custom(name: "x"))
        let stall = try #require(logs.all.first { $0.message.hasPrefix("still running") })
        #expect(stall.metadata["module"] == "quick")
        #expect(stall.at - begin < .milliseconds(400), "seen at its own budget, not the 5 s default")
        await hive.stop()
    }

    /// A module that joins, or gets a smaller budget, in the very turn that runs its hook
    /// (a reload adding it) is seen at its own budget too: the turn's timer was armed for
    /// the budgets the hive had when the turn began.
    @Test func aSmallerBudgetThatJoinsInTheTurnItStallsInIsTimedAtOnce() async throws {
        let logs = LogStore()
        let hive = try makeHive([(ScriptedModule(Recorder()), ModuleDescriptor(name: "first"))], logs: logs)
        try await hive.start()
        let begin = ContinuousClock.now
        try await hive.register(ScriptedModule(Recorder(), [.setup: .sleep(.milliseconds(700))]),
            as: ModuleDescriptor(name: "quick", budget: .milliseconds(200)))
        let stall = try #require(logs.all.first { $0.message.hasPrefix("still running") }, "the stall is logged")
        #expect(stall.metadata["module"] == "quick")
        #expect(stall.metadata["event"] == "setup")
        #expect(stall.at - begin >= .milliseconds(200))
        #expect(stall.at - begin < .milliseconds(200) + .milliseconds(150), "seen at its budget: \(stall.at - begin)")
        await hive.stop()
    }
}
