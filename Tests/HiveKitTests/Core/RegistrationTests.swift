import HiveKit
import TestSupport
import Testing

@Suite struct RegistrationTests {
    @Test func registeringIntoARunningHiveBringsTheModuleToItsPhase() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "a"))])
        try await hive.start()
        try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "early"))
        #expect(recorder.all.filter { $0.hasPrefix("early.") } == ["early.setup", "early.init"], "no ready yet")
        try await hive.send(.ready)
        try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "late", isAsync: true))
        #expect(recorder.all.filter { $0.hasPrefix("late.") } == ["late.setup", "late.init", "late.ready"])
        #expect(recorder.modules(for: "ready") == ["a", "early", "late"], "early got ready once, with the others")
        #expect(hive.activeModuleNames == ["a", "early", "late"])
        let report = try await hive.send(.custom(name: "x"))
        #expect(report.delivered == 3)
        await hive.stop()
        #expect(recorder.modules(for: "teardown") == ["late", "early", "a"])
    }

    @Test func aModuleJoiningASuspendedHiveGoesToTheBackgroundToo() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "a"))])
        try await hive.start()
        try await hive.send(.ready)
        try await hive.send(.background(params: ["reason": "sleep"]))
        let seen = Recorder()
        try await hive.register(ScriptedModule(recorder, [
            .background: .run { context in seen.append(context.parameters["reason"] ?? "none") },
        ]), as: ModuleDescriptor(name: "late"))
        #expect(recorder.all.filter { $0.hasPrefix("late.") } == ["late.setup", "late.init", "late.ready", "late.background"])
        #expect(seen.all == ["sleep"], "the background that suspended the hive, with its parameters")
        try await hive.send(.foreground)
        #expect(recorder.modules(for: "foreground") == ["a", "late"])
        await hive.stop()
    }

    @Test func registeringBeforeStartOnlyJoinsTheOrder() async throws {
        let recorder = Recorder()
        let hive = Hive(HiveConfiguration(environment: .testing))
        try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "b"))
        try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "a", level: .basic))
        #expect(recorder.all.isEmpty)
        #expect(hive.moduleNames == ["a", "b"])
        #expect(hive.activeModuleNames.isEmpty)
        try await hive.start()
        #expect(recorder.all == ["a.setup", "b.setup", "a.init", "b.init"])
        await hive.stop()
    }

    @Test func aFailingInitOfADynamicModuleRemovesItWithoutTeardownAndThrows() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "a"))])
        try await hive.start()
        let error = await #expect(throws: HiveError.self) {
            try await hive.register(ScriptedModule(recorder, [.`init`: .fail("no socket")]),
                as: ModuleDescriptor(name: "late"))
        }
        #expect(error?.code == .handlerFailed)
        #expect(error?.module == "late")
        #expect(error?.event == .`init`)
        #expect(error?.description.contains("no socket") == true)
        #expect(Array(recorder.all.suffix(2)) == ["late.setup", "late.init"], "as at start-up, it receives nothing more")
        #expect(hive.moduleNames == ["a"])
        #expect(hive.module(named: "late") == nil)
        #expect(hive.phase == .initialized, "a failed dynamic registration does not fail the hive")
        try await hive.send(.ready)
        // The name is free again.
        try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "late"))
        #expect(hive.activeModuleNames == ["a", "late"])
        await hive.stop()
        let late = recorder.all.filter { $0.hasPrefix("late.") }
        #expect(Array(late.prefix(4)) == ["late.setup", "late.init", "late.setup", "late.init"], "\(late)")
        #expect(late.filter { $0 == "late.teardown" }.count == 1, "only the second one is torn down: \(late)")
    }

    @Test func aFailingSetupOfADynamicModuleRemovesItWithoutTeardown() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "a"))])
        try await hive.start()
        let error = await #expect(throws: HiveError.self) {
            try await hive.register(ScriptedModule(recorder, [.setup: .fail("nope")]),
                as: ModuleDescriptor(name: "late"))
        }
        #expect(error?.event == .setup)
        #expect(recorder.all.filter { $0.hasPrefix("late.") } == ["late.setup"])
        #expect(hive.moduleNames == ["a"])
        // The name can be used again.
        try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "late"))
        #expect(hive.activeModuleNames == ["a", "late"])
        await hive.stop()
    }

    @Test func unregisterTerminatesTearsDownThenUnmountsAndTheModuleReceivesNothingMore() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder), ModuleDescriptor(name: "a")),
            (ScriptedModule(recorder), ModuleDescriptor(name: "gone", isAsync: true)),
        ])
        try await hive.start()
        try await hive.send(.ready)
        try await hive.unregister(named: "gone")
        #expect(recorder.all.filter { $0.hasPrefix("gone.") } == [
            "gone.setup", "gone.init", "gone.ready", "gone.terminate", "gone.teardown", "gone.unmount",
        ])
        #expect(hive.moduleNames == ["a"])
        #expect(hive.module(named: "gone") == nil)
        let report = try await hive.send(.custom(name: "after"))
        #expect(report.delivered == 1)
        await hive.stop()
        #expect(recorder.all.filter { $0.hasPrefix("gone.") }.count == 6)
        #expect(!recorder.all.contains("a.unmount"), "stop does not unmount")
    }

    @Test func unregisterAbandonsAStalledTeardown() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder, [.teardown: .sleep(.seconds(60))]),
                ModuleDescriptor(name: "stuck", budget: .milliseconds(100))),
        ])
        try await hive.start()
        try await hive.unregister(named: "stuck")
        #expect(recorder.all == ["stuck.setup", "stuck.init", "stuck.terminate", "stuck.teardown", "stuck.unmount"])
        #expect(hive.moduleNames.isEmpty)
    }

    @Test func unregisterBeforeStartJustRemoves() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "a"))])
        try await hive.unregister(named: "a")
        #expect(hive.moduleNames.isEmpty)
        #expect(recorder.all.isEmpty)
    }

    @Test func unknownAndDuplicateNamesAreErrorsNamingTheModule() async throws {
        let hive = try makeHive([(ScriptedModule(Recorder()), ModuleDescriptor(name: "a"))])
        let unknown = await #expect(throws: HiveError.self) { try await hive.unregister(named: "ghost") }
        #expect(unknown?.code == .unknownModule)
        #expect(unknown?.module == "ghost")
        let duplicate = await #expect(throws: HiveError.self) {
            try await hive.register(ScriptedModule(Recorder()), as: ModuleDescriptor(name: "a"))
        }
        #expect(duplicate?.code == .duplicateModule)
        #expect(duplicate?.module == "a")
        #expect(duplicate?.description.contains("'a'") == true)
        let initDuplicate = #expect(throws: HiveError.self) {
            _ = try makeHive([
                (ScriptedModule(Recorder()), ModuleDescriptor(name: "x")),
                (ScriptedModule(Recorder()), ModuleDescriptor(name: "x")),
            ])
        }
        #expect(initDuplicate?.code == .duplicateModule)
        #expect(initDuplicate?.module == "x")
        #expect(throws: HiveError.self) { _ = try makeHive([(ScriptedModule(Recorder()), ModuleDescriptor(name: ""))]) }
    }

    @Test func aHookCanLookUpModulesIncludingItself() async throws {
        let seen = Recorder()
        let hive = try makeHive([
            (ScriptedModule(Recorder()), ModuleDescriptor(name: "store", level: .basic)),
            (ScriptedModule(Recorder(), [
                .`init`: .run { context in
                    seen.append("store:\(context.module(named: "store") is ScriptedModule)")
                    seen.append("self:\(context.module(named: "api") != nil)")
                    seen.append("ghost:\(context.module(named: "ghost") == nil)")
                    seen.append("names:\(context.hive.moduleNames)")
                },
            ]), ModuleDescriptor(name: "api", isAsync: true)),
        ])
        try await hive.start()
        #expect(seen.all == ["store:true", "self:true", "ghost:true", "names:[\"store\", \"api\"]"])
        await hive.stop()
    }

    /// A hook that awaits a registration, unregistration or event of its own hive would
    /// wait for itself forever; it must get an error instead.
    @Test(arguments: [false, true])
    func aHookThatCallsBackIntoItsHiveGetsAnErrorNotADeadlock(isAsync: Bool) async throws {
        let seen = Recorder()
        let callBack: @Sendable (ModuleContext) async throws -> Void = { context in
            do throws(HiveError) {
                try await context.hive.register(ScriptedModule(Recorder()), as: ModuleDescriptor(name: "child"))
                seen.append("registered")
            } catch { seen.append("register: \(error.code) \(error.module ?? "")") }
            do throws(HiveError) { try await context.hive.unregister(named: "other") } catch { seen.append("unregister: \(error.code)") }
            do throws(HiveError) { try await context.hive.send(.memoryWarning) } catch { seen.append("send: \(error.code)") }
            do throws(HiveError) { _ = try await context.hive.reload(to: [], catalog: ModuleCatalog()) } catch {
                seen.append("reload: \(error.code)")
            }
            seen.append("stop: \(await context.hive.stop().map(\.code))")
        }
        let callBackAtTeardown: @Sendable (ModuleContext) async throws -> Void = { context in
            do throws(HiveError) { try await context.hive.unregister(named: "other") } catch {
                seen.append("teardown unregister: \(error.code)")
            }
        }
        let hive = try makeHive([
            (ScriptedModule(Recorder()), ModuleDescriptor(name: "other")),
            (ScriptedModule(
                Recorder(), [.custom: .run(callBack), .teardown: .run(callBackAtTeardown)]),
                    ModuleDescriptor(name: "parent", isAsync: isAsync)),
        ])
        try await hive.start()
        let delivery = Task { try await hive.send(.custom(name: "call-back")) }
        let finished = await eventually(timeout: .seconds(20), wakingOn: seen) { seen.all.count >= 5 }
        #expect(finished, "the hook deadlocked on its own hive")
        guard finished else { return }
        _ = try await delivery.value
        #expect(seen.all == [
            "register: refusedEvent parent", "unregister: refusedEvent", "send: refusedEvent", "reload: refusedEvent",
            "stop: [refusedEvent]",
        ])
        #expect(hive.moduleNames == ["other", "parent"])
        #expect(hive.phase == .initialized, "the refused stop changed nothing")
        await hive.stop()
        #expect(seen.all.last == "teardown unregister: refusedEvent")
    }

    @Test func aHookMayStartATaskThatRegistersLater() async throws {
        let spawn: @Sendable (ModuleContext) async throws -> Void = { context in
            let hive = context.hive
            Task { try await hive.register(ScriptedModule(Recorder()), as: ModuleDescriptor(name: "child")) }
        }
        let hive = try makeHive([(ScriptedModule(Recorder(), [.custom: .run(spawn)]),
            ModuleDescriptor(name: "parent"))])
        try await hive.start()
        try await hive.send(.custom(name: "spawn"))
        #expect(await eventually { hive.activeModuleNames == ["parent", "child"] })
        await hive.stop()
    }

    @Test func registeringFromTheCatalogKeepsTheDescriptorsSettings() async throws {
        let seen = Recorder()
        var catalog = ModuleCatalog()
        catalog.register("echo", settings: ["greeting"]) { descriptor in
            ScriptedModule(seen, [.`init`: .run { context in
                seen.append("greeting=\(try context.settings.string("greeting") ?? "nil")")
            }])
        }
        let hive = try makeHive([])
        try await hive.start()
        try await hive.register(
            ModuleDescriptor(name: "hello", type: "echo", settings: Settings(["greeting": .string("hi")])), catalog: catalog)
        try await hive.register(ModuleDescriptor(name: "off", type: "echo", isEnabled: false), catalog: catalog)
        #expect(hive.moduleNames == ["hello"])
        #expect(seen.all == ["hello.setup", "hello.init", "greeting=hi"])
        let unknown = await #expect(throws: HiveError.self) {
            try await hive.register(ModuleDescriptor(name: "weird", type: "nope"), catalog: catalog)
        }
        #expect(unknown?.code == .unknownModuleType)
        #expect(unknown?.module == "weird")
        await hive.stop()
    }

    /// A disabled descriptor is ignored in code as from a catalog: nothing joins the order.
    @Test func aDisabledDescriptorRegistersNothing() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder), ModuleDescriptor(name: "on")),
            (ScriptedModule(recorder), ModuleDescriptor(name: "off", isEnabled: false)),
        ])
        try await hive.start()
        try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "later", isEnabled: false))
        #expect(hive.moduleNames == ["on"])
        #expect(recorder.modules(for: "init") == ["on"])
        await hive.stop()
    }

    /// What a module declared, catalog type and file:line included, is what the hive shows.
    @Test func theHiveShowsWhatEachModuleDeclared() async throws {
        var catalog = ModuleCatalog()
        catalog.register("echo") { _ in ScriptedModule(Recorder()) }
        let location = SourceLocation(path: "hived.yaml", line: 4)
        let hive = try makeHive([(ScriptedModule(Recorder()), ModuleDescriptor(name: "code", level: .basic))])
        try await hive.register(ModuleDescriptor(name: "configured", type: "echo", priority: 3, location: location), catalog: catalog)
        let configured = try #require(hive.descriptor(named: "configured"))
        #expect(configured.type == "echo")
        #expect(configured.location == location)
        #expect(configured.priority == 3)
        #expect(configured.settings.owner == "configured")
        #expect(hive.descriptor(named: "code")?.type == nil)
        #expect(hive.moduleStatuses.map(\.type) == [nil, "echo"])
        #expect(hive.moduleStatuses.map(\.level) == [.basic, .normal])
    }
}
