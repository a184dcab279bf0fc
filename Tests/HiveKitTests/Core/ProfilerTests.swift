import HiveKit
import TestSupport
import Testing

@Suite struct ProfilerTests {
    @Test func countsOutcomesAndDurationsPerModuleAndEvent() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder, [.custom: .sleep(.milliseconds(40))]),
                ModuleDescriptor(name: "slow", priority: 10)),
            (ScriptedModule(recorder, [.custom: .fail("nope")]), ModuleDescriptor(name: "flaky")),
            (ScriptedModule(recorder, [.teardown: .sleep(.seconds(60))]),
                ModuleDescriptor(name: "stuck", priority: -10, budget: .milliseconds(100))),
        ])
        try await hive.start()
        try await hive.send(.ready)
        for _ in 0..<3 { try await hive.send(.custom(name: "tick")) }
        await hive.stop()
        let profile = hive.profile
        #expect(profile.modules.map(\.name) == ["slow", "flaky", "stuck"])
        let slow = try #require(profile.stats(module: "slow", event: .custom))
        #expect(slow.calls == 3)
        #expect(slow.failures == 0)
        #expect(slow.lastOutcome == .succeeded)
        #expect(slow.total >= .milliseconds(120))
        #expect(slow.longest >= .milliseconds(40))
        #expect(slow.average >= .milliseconds(40))
        #expect(slow.longest <= slow.total)
        let flaky = try #require(profile.stats(module: "flaky", event: .custom))
        #expect(flaky.calls == 3)
        #expect(flaky.failures == 3)
        #expect(flaky.lastOutcome == .failed)
        let abandoned = try #require(profile.stats(module: "stuck", event: .teardown))
        #expect(abandoned.abandoned == 1)
        #expect(abandoned.lastOutcome == .abandoned)
        #expect(abandoned.last >= .milliseconds(100))
        for module in ["slow", "flaky", "stuck"] {
            for event in [EventKind.setup, .`init`, .ready, .terminate, .teardown] {
                #expect(profile.stats(module: module, event: event)?.calls == 1, "\(module).\(event)")
            }
            #expect(profile.stats(module: module, event: .reload) == nil)
        }
        let stuckModule = try #require(profile.modules.last)
        #expect(stuckModule.priority == -10)
        #expect(stuckModule.total >= abandoned.total)
    }

    @Test func blameListsTheLongestFirst() async throws {
        let hive = try makeHive([
            (ScriptedModule(Recorder()), ModuleDescriptor(name: "quick")),
            (ScriptedModule(Recorder(), [.`init`: .sleep(.milliseconds(80))]), ModuleDescriptor(name: "slowInit")),
            (ScriptedModule(Recorder(), [.setup: .sleep(.milliseconds(30))]), ModuleDescriptor(name: "slowSetup")),
        ])
        try await hive.start()
        let blame = hive.profile.blame
        // Every (module, event) pair once, whatever the timing.
        #expect(Set(blame.map { "\($0.module).\($0.event)" }) == [
            "quick.setup", "quick.init", "slowInit.setup", "slowInit.init", "slowSetup.setup", "slowSetup.init",
        ])
        #expect(blame.count == 6)
        // Longest first. Wall-clock sleeps only ever last longer than asked (a loaded
        // cooperative pool can stretch the 30 ms one past the 80 ms one), so the exact
        // ranking of the two slow hooks is not asserted; ties are in ProfileValueTests.
        #expect(zip(blame, blame.dropFirst()).allSatisfy { $0.stats.total >= $1.stats.total })
        #expect(blame[0].stats.total >= .milliseconds(80))
        let total = { (module: String, event: EventKind) in
            blame.first { $0.module == module && $0.event == event }?.stats.total ?? .zero
        }
        #expect(total("slowInit", .`init`) >= .milliseconds(80))
        #expect(total("slowSetup", .setup) >= .milliseconds(30))
        await hive.stop()
    }

    @Test func startupCriticalPathIsTheSyncChainOrTheLongerAsyncCall() async throws {
        let hive = try makeHive([
            (ScriptedModule(Recorder(), [.setup: .sleep(.milliseconds(20))]),
                ModuleDescriptor(name: "s1", priority: 2)),
            (ScriptedModule(Recorder()), ModuleDescriptor(name: "s2", priority: 1)),
            (ScriptedModule(Recorder(), [.`init`: .sleep(.milliseconds(150))]),
                ModuleDescriptor(name: "a-long", isAsync: true)),
            (ScriptedModule(Recorder()), ModuleDescriptor(name: "a-short", isAsync: true)),
        ])
        #expect(hive.profile.startup.phases.isEmpty)
        try await hive.start()
        let startup = hive.profile.startup
        #expect(startup.phases.map(\.event) == [.setup, .`init`])
        let setup = startup.phases[0]
        #expect(setup.sync.map(\.module) == ["s1", "s2"])
        #expect(Set(setup.async.map(\.module)) == ["a-long", "a-short"])
        #expect(setup.criticalPath.map(\.module) == ["s1", "s2"])
        #expect(setup.duration >= .milliseconds(20))
        let initPhase = startup.phases[1]
        #expect(initPhase.criticalPath.map(\.module) == ["a-long"])
        #expect(initPhase.criticalPath.first?.event == .`init`)
        #expect(initPhase.duration >= .milliseconds(150))
        #expect(startup.criticalPath.map(\.module) == ["s1", "s2", "a-long"])
        #expect(startup.total >= setup.duration + .milliseconds(150))
        #expect(startup.criticalPath.allSatisfy { $0.outcome == .succeeded })
        #expect(initPhase.criticalPath.first?.description.hasSuffix("a-long.init") == true)
        await hive.stop()
    }

    @Test func anAsyncCallIsTimedWhenItReturnsNotWhenTheSyncChainEnds() async throws {
        let hive = try makeHive([
            (ScriptedModule(Recorder(), [.setup: .sleep(.milliseconds(75))]),
                ModuleDescriptor(name: "s1", priority: 2)),
            (ScriptedModule(Recorder(), [.setup: .sleep(.milliseconds(75))]),
                ModuleDescriptor(name: "s2", priority: 1)),
            (ScriptedModule(Recorder()), ModuleDescriptor(name: "quick", isAsync: true)),
        ])
        try await hive.start()
        let setup = try #require(hive.profile.startup.phases.first)
        let quick = try #require(setup.async.first)
        #expect(quick.module == "quick")
        #expect(quick.duration < .milliseconds(100), "timed to the end of the 150 ms sync chain: \(quick)")
        #expect(setup.criticalPath.map(\.module) == ["s1", "s2"])
        await hive.stop()
    }

    @Test func aFailedStartIsVisibleInTheStartupProfile() async throws {
        let hive = try makeHive([
            (ScriptedModule(Recorder()), ModuleDescriptor(name: "ok", priority: 1)),
            (ScriptedModule(Recorder(), [.`init`: .fail("x")]), ModuleDescriptor(name: "bad")),
        ])
        _ = try? await hive.start()
        let initPhase = try #require(hive.profile.startup.phases.last)
        #expect(initPhase.sync.map(\.outcome) == [.succeeded, .failed])
        #expect(initPhase.sync.last?.description.hasSuffix("bad.init (failed)") == true)
        #expect(hive.profile.stats(module: "ok", event: .teardown)?.calls == 1)
        #expect(hive.profile.stats(module: "bad", event: .teardown) == nil)
    }
}

