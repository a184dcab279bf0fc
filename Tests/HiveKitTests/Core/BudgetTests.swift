import HiveKit
import Testing

@Suite struct BudgetTests {
    @Test func stalledTeardownIsAbandonedSoLaterModulesStillTearDown() async throws {
        let recorder = Recorder()
        let logs = LogStore()
        let hive = try makeHive([
            ModuleRegistration(name: "first", priority: 30, module: ScriptedModule(recorder)),
            ModuleRegistration(name: "stuck", priority: 20, budget: .milliseconds(150),
                module: ScriptedModule(recorder, [.teardown: .sleep(.seconds(60))])),
            ModuleRegistration(name: "last", priority: 10, module: ScriptedModule(recorder)),
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
            ModuleRegistration(name: "a", priority: 1, module: ScriptedModule(recorder)),
            ModuleRegistration(name: "blocked", budget: .milliseconds(100),
                module: ScriptedModule(recorder, [.terminate: .hang(.seconds(1))])),
        ])
        try await hive.start()
        let failures = await hive.stop()
        #expect(failures.map(\.module) == ["blocked"])
        #expect(recorder.modules(for: "teardown") == ["blocked", "a"])
    }

    @Test func theDefaultBudgetAppliesWhenAModuleNamesNone() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            ModuleRegistration(name: "stuck", module: ScriptedModule(recorder, [.teardown: .sleep(.seconds(60))])),
        ], budget: .milliseconds(120))
        try await hive.start()
        let failures = await hive.stop()
        #expect(failures.first?.code == .handlerTimedOut)
        #expect(failures.first?.description.contains("budget") == true)
    }

    @Test func stalledHandlersReportsAHandlerPastItsBudgetAndItIsLogged() async throws {
        let logs = LogStore()
        let release = Latch()
        let hive = try makeHive([
            ModuleRegistration(name: "slow", budget: .milliseconds(100), module: ScriptedModule(Recorder(), [
                .custom: .run { _ in _ = await release.wait(timeout: .seconds(20)) },
            ])),
            ModuleRegistration(name: "fine", module: ScriptedModule(Recorder())),
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
        let logged = await eventually {
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
}
