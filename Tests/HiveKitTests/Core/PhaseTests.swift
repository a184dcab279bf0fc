import HiveKit
import TestSupport
import Testing

@Suite struct PhaseTests {
    func expectRefused(
        _ hive: Hive, _ event: HiveEvent, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async {
        let phase = hive.phase
        let error = await #expect(throws: HiveError.self, sourceLocation: sourceLocation) {
            try await hive.send(event)
        }
        #expect(error?.code == .refusedEvent, sourceLocation: sourceLocation)
        #expect(error?.event == event, sourceLocation: sourceLocation)
        #expect(error?.message.contains("refused in phase '\(phase)'") == true, sourceLocation: sourceLocation)
        #expect(hive.phase == phase, "a refused event leaves the phase alone", sourceLocation: sourceLocation)
    }

    @Test func eventsBeforeStartAreRefused() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "m"))])
        for event: HiveEvent in [.foreground, .background, .ready, .reload, .custom(name: "x"), .terminate, .teardown, .memoryWarning] {
            await expectRefused(hive, event)
        }
        #expect(recorder.all.isEmpty)
    }

    @Test func foregroundBeforeInitAndBackgroundTwiceAreRefused() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "m"))])
        await expectRefused(hive, .foreground)
        try await hive.start()
        await expectRefused(hive, .foreground)
        await expectRefused(hive, .background)  // not running yet: ready comes first
        try await hive.send(.ready)
        await expectRefused(hive, .ready)
        try await hive.send(.background)
        await expectRefused(hive, .background)
        try await hive.send(.foreground)
        await expectRefused(hive, .foreground)
        #expect(recorder.modules(for: "background").count == 1)
        #expect(recorder.modules(for: "foreground").count == 1)
        await hive.stop()
    }

    @Test func setupInitAndUnmountCannotBeSent() async throws {
        let hive = try makeHive([(ScriptedModule(Recorder()), ModuleDescriptor(name: "m"))])
        try await hive.start()
        for event: HiveEvent in [.setup, .`init`, .unmount] {
            await expectRefused(hive, event)
        }
        let error = await #expect(throws: HiveError.self) { try await hive.send(.setup) }
        #expect(error?.message.contains("start()") == true)
        await #expect(throws: HiveError.self) { try await hive.start() }
        await hive.stop()
    }

    @Test func everythingAfterTeardownIsRefused() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "m"))])
        try await hive.start()
        try await hive.send(.ready)
        await hive.stop()
        let seen = recorder.all
        for event: HiveEvent in [.setup, .`init`, .ready, .background, .foreground, .reload, .memoryWarning, .custom(name: "x"), .terminate, .teardown, .unmount] {
            await expectRefused(hive, event)
        }
        await #expect(throws: HiveError.self) { try await hive.start() }
        let registerError = await #expect(throws: HiveError.self) {
            try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "late"))
        }
        #expect(registerError?.module == "late")
        await #expect(throws: HiveError.self) {
            _ = try await hive.reload(to: [], catalog: ModuleCatalog())
        }
        #expect(await hive.stop().map(\.code) == [.refusedEvent], "a second stop is refused and changes nothing")
        #expect(recorder.all == seen)
    }

    @Test func afterTerminateOnlyTeardownIsAccepted() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "m"))])
        try await hive.start()
        try await hive.send(.ready)
        try await hive.send(.terminate)
        for event: HiveEvent in [.ready, .reload, .custom(name: "x"), .background, .terminate, .memoryWarning] {
            await expectRefused(hive, event)
        }
        try await hive.send(.teardown)
        #expect(recorder.all == ["m.setup", "m.init", "m.ready", "m.terminate", "m.teardown"])
    }

    @Test func teardownWithoutTerminateIsAllowedFromALivePhase() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "m"))])
        try await hive.start()
        try await hive.send(.teardown)
        #expect(hive.phase == .stopped)
        #expect(recorder.all == ["m.setup", "m.init", "m.teardown"])
    }
}
