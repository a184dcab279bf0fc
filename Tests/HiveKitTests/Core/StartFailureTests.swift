import HiveKit
import Synchronization
import TestSupport
import Testing

@Suite struct StartFailureTests {
    @Test func failedInitRollsBackInReverseAndNamesModuleEventAndCause() async throws {
        let recorder = Recorder()
        let logs = LogStore()
        let hive = try makeHive([
            (ScriptedModule(recorder), ModuleDescriptor(name: "a", priority: 30)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "b", priority: 20)),
            (ScriptedModule(recorder, [.`init`: .fail("disk on fire")]), ModuleDescriptor(name: "bad", priority: 10)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "d", priority: 0)),
        ], logs: logs)
        let error = await #expect(throws: HiveError.self) { try await hive.start() }
        #expect(error?.code == .handlerFailed)
        #expect(error?.module == "bad")
        #expect(error?.event == .`init`)
        #expect(error?.underlying is TestFailure)
        #expect(error?.description.contains("module 'bad' (init)") == true)
        #expect(error?.description.contains("disk on fire") == true)
        #expect(hive.phase == .failed)
        // d was set up but never initialized: it is torn down too. bad gets nothing more.
        #expect(recorder.modules(for: "init") == ["a", "b", "bad"])
        #expect(recorder.modules(for: "teardown") == ["d", "b", "a"])
        #expect(!recorder.all.contains("bad.teardown"))
        #expect(recorder.all.last == "a.teardown")
        #expect(hive.activeModuleNames.isEmpty)
        #expect(logs.all.contains { $0.level == .error && $0.metadata["module"] == "bad" && $0.metadata["event"] == "init" })
        // A failed hive refuses everything afterwards; stop() only reports its refusal.
        await #expect(throws: HiveError.self) { try await hive.send(.ready) }
        await #expect(throws: HiveError.self) { try await hive.start() }
        #expect(await hive.stop().map(\.code) == [.refusedEvent])
        #expect(recorder.all.last == "a.teardown")
    }

    @Test func aSupervisorHearsOfTheRollbackBeforeAnyTeardown() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder), ModuleDescriptor(name: "a", priority: 20)),
            (ScriptedModule(recorder, [.`init`: .fail("no")]), ModuleDescriptor(name: "bad", priority: 10)),
        ])
        let heard = Mutex<[String]>([])
        await #expect(throws: HiveError.self) {
            try await hive.start(rollingBack: { failure in
                heard.withLock { $0.append("\(failure.module ?? "") after \(recorder.all.last ?? "")") }
            })
        }
        #expect(heard.withLock { $0 } == ["bad after bad.init"], "once, with the failure, before a's teardown")
        #expect(recorder.all.last == "a.teardown")
    }

    @Test func failingSetupStopsStartBeforeAnyInit() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder), ModuleDescriptor(name: "a", priority: 30)),
            (ScriptedModule(recorder, [.setup: .fail("no config")]), ModuleDescriptor(name: "bad", priority: 20)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "c", priority: 10)),
        ])
        let error = await #expect(throws: HiveError.self) { try await hive.start() }
        #expect(error?.module == "bad")
        #expect(error?.event == .setup)
        #expect(hive.phase == .failed)
        #expect(recorder.all == ["a.setup", "bad.setup", "a.teardown"])
        // The start-up profile has the setup phase only.
        #expect(hive.profile.startup.phases.map(\.event) == [.setup])
    }

    @Test func failingAsyncInitRollsBackTheOthers() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder), ModuleDescriptor(name: "sync", priority: 10)),
            (ScriptedModule(recorder, [.`init`: .fail("boom")]), ModuleDescriptor(name: "async-bad", isAsync: true)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "async-ok", isAsync: true)),
        ])
        let error = await #expect(throws: HiveError.self) { try await hive.start() }
        #expect(error?.module == "async-bad")
        #expect(hive.phase == .failed)
        #expect(Set(recorder.modules(for: "teardown")) == ["sync", "async-ok"])
        #expect(recorder.modules(for: "teardown") == ["async-ok", "sync"])
    }

    @Test func rollbackAbandonsAStalledTeardown() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder), ModuleDescriptor(name: "a", priority: 30)),
            (ScriptedModule(recorder, [.teardown: .sleep(.seconds(60))]),
                ModuleDescriptor(name: "stuck", priority: 20, budget: .milliseconds(150))),
            (ScriptedModule(recorder, [.`init`: .fail("x")]), ModuleDescriptor(name: "bad", priority: 10)),
        ])
        let clock = ContinuousClock()
        let elapsed = await clock.measure { _ = try? await hive.start() }
        #expect(elapsed < .seconds(30))
        #expect(recorder.modules(for: "teardown") == ["stuck", "a"])
        #expect(hive.phase == .failed)
    }
}
