import HiveKit
import TestSupport
import Testing

@Suite struct OrderTests {
    /// Registered deliberately out of order: level, then priority (higher first), then
    /// registration order must decide.
    static func shuffled(_ recorder: Recorder) -> [(module: any Module, descriptor: ModuleDescriptor)] {
        [
            (ScriptedModule(recorder), ModuleDescriptor(name: "n-low", level: .normal, priority: -5)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "n-tie-1", level: .normal, priority: 10)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "b-low", level: .basic, priority: 0)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "n-high", level: .normal, priority: 1000)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "n-tie-2", level: .normal, priority: 10)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "b-high", level: .basic, priority: 50)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "n-tie-3", level: .normal, priority: 10)),
        ]
    }

    static let expected = ["b-high", "b-low", "n-high", "n-tie-1", "n-tie-2", "n-tie-3", "n-low"]

    @Test func levelThenPriorityThenRegistrationOrder() async throws {
        let recorder = Recorder()
        let hive = try makeHive(Self.shuffled(recorder))
        #expect(hive.moduleNames == Self.expected)
        try await hive.start()
        try await hive.send(.ready)
        try await hive.send(.custom(name: "ping"))
        #expect(recorder.modules(for: "setup") == Self.expected)
        #expect(recorder.modules(for: "init") == Self.expected)
        #expect(recorder.modules(for: "ready") == Self.expected)
        #expect(recorder.modules(for: "custom") == Self.expected)
        // Every setup happens before any init.
        let all = recorder.all
        let lastSetup = try #require(all.lastIndex { $0.hasSuffix(".setup") })
        let firstInit = try #require(all.firstIndex { $0.hasSuffix(".init") })
        #expect(lastSetup < firstInit)
    }

    @Test func stopTerminatesInOrderThenTearsDownInExactReverse() async throws {
        let recorder = Recorder()
        let hive = try makeHive(Self.shuffled(recorder))
        try await hive.start()
        try await hive.send(.ready)
        let failures = await hive.stop()
        #expect(failures.isEmpty)
        #expect(hive.phase == .stopped)
        #expect(recorder.modules(for: "terminate") == Self.expected)
        #expect(recorder.modules(for: "teardown") == Self.expected.reversed())
        let all = recorder.all
        let lastTerminate = try #require(all.lastIndex { $0.hasSuffix(".terminate") })
        let firstTeardown = try #require(all.firstIndex { $0.hasSuffix(".teardown") })
        #expect(lastTerminate < firstTeardown)
    }

    @Test func asyncModulesAreStillTornDownSequentiallyInReverse() async throws {
        let recorder = Recorder()
        let modules = (0..<6).map { index in
            (ScriptedModule(recorder, tracksOverlap: true),
                ModuleDescriptor(name: "m\(index)", priority: 100 - index, isAsync: index.isMultiple(of: 2)))
        }
        let hive = try makeHive(modules)
        try await hive.start()
        await hive.stop()
        #expect(recorder.modules(for: "teardown") == ["m5", "m4", "m3", "m2", "m1", "m0"])
        // One at a time: each hook yields and sleeps a moment, so an overlap would show.
        #expect(recorder.maxInFlight(during: "teardown") == 1)
    }

    @Test func dynamicallyRegisteredModuleTakesItsPlaceInTheOrder() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder), ModuleDescriptor(name: "a", priority: 10)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "c", priority: 0)),
        ])
        try await hive.start()
        try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "b", priority: 5))
        #expect(hive.moduleNames == ["a", "b", "c"])
        try await hive.send(.memoryWarning)
        #expect(recorder.modules(for: "memoryWarning") == ["a", "b", "c"])
        await hive.stop()
        #expect(recorder.modules(for: "teardown") == ["c", "b", "a"])
    }

    /// Levels are barriers: a `basic` module that is slow (sync or async) holds back every
    /// `normal` one, at start-up, for every event, and at `terminate`; `teardown` mirrors it.
    @Test(arguments: [true, false])
    func levelsAreBarriersForEveryEvent(basicIsAsync: Bool) async throws {
        let recorder = Recorder()
        let slow: @Sendable (ModuleContext) async throws -> Void = { context in
            try await Task.sleep(for: .milliseconds(150))
            recorder.append("\(context.moduleName).\(context.event.kind) done")
        }
        let slowOnEverything = Dictionary(
            uniqueKeysWithValues: [EventKind.setup, .`init`, .custom, .terminate, .teardown].map { ($0, Behavior.run(slow)) })
        let hive = try makeHive([
            (ScriptedModule(recorder, slowOnEverything),
                ModuleDescriptor(name: "basic", level: .basic, isAsync: basicIsAsync)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "basic-sync", level: .basic, priority: -1)),
            (ScriptedModule(recorder, [.teardown: .run(slow)]),
                ModuleDescriptor(name: "normal-async", priority: 10, isAsync: true)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "normal-sync")),
        ])
        try await hive.start()
        try await hive.send(.ready)
        try await hive.send(.custom(name: "x"))
        await hive.stop()
        let all = recorder.all
        for event in ["setup", "init", "custom", "terminate"] {
            let done = try #require(all.firstIndex(of: "basic.\(event) done"), "\(event): \(all)")
            for normal in ["normal-async", "normal-sync"] {
                let start = try #require(all.firstIndex(of: "\(normal).\(event)"))
                #expect(done < start, "\(normal) received \(event) before basic returned from it: \(all)")
            }
        }
        // Teardown: every normal module returns before any basic one is called.
        let normalDone = try #require(all.firstIndex(of: "normal-async.teardown done"))
        let firstBasic = try #require(all.firstIndex { $0 == "basic.teardown" || $0 == "basic-sync.teardown" })
        #expect(normalDone < firstBasic, "\(all)")
        #expect(recorder.modules(for: "teardown") == ["normal-sync", "normal-async", "basic-sync", "basic"])
    }
}
