import HiveKit
import Testing

@Suite struct ReloadTests {
    static func catalog(_ recorder: Recorder) -> ModuleCatalog {
        var catalog = ModuleCatalog()
        for type in ["alpha", "beta"] {
            catalog.register(type) { _ in
                ScriptedModule(recorder, [.reload: .run { context in
                    recorder.append("\(context.moduleName) sees level=\(try context.settings.int("level") ?? -1)")
                }])
            }
        }
        catalog.register("broken") { _ in throw TestFailure("cannot build") }
        catalog.register("failsInit") { _ in ScriptedModule(recorder, [.`init`: .fail("init refused")]) }
        return catalog
    }

    static func spec(_ name: String, _ type: String, priority: Int = 0, level: Int = 0, enabled: Bool = true) -> ModuleSpec {
        ModuleSpec(
            ModuleDescriptor(name: name, priority: priority, settings: Settings(["level": .int(level)])),
            type: type, isEnabled: enabled)
    }

    func startedHive(_ recorder: Recorder) async throws -> (Hive, ModuleCatalog) {
        let catalog = Self.catalog(recorder)
        let hive = try makeHive([ModuleRegistration(name: "code", priority: -100, module: ScriptedModule(recorder))])
        for spec in [Self.spec("keep", "alpha", priority: 10), Self.spec("drop", "alpha"), Self.spec("retype", "alpha")] {
            try await hive.register(spec, catalog: catalog)
        }
        try await hive.start()
        try await hive.send(.ready)
        return (hive, catalog)
    }

    @Test func reloadAddsRemovesChangesAndReloadsTheKeptOnes() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await startedHive(recorder)
        #expect(hive.moduleNames == ["keep", "drop", "retype", "code"])
        let before = recorder.all.count
        let summary = try await hive.reload(to: [
            Self.spec("keep", "alpha", priority: -200, level: 2),
            Self.spec("retype", "beta"),
            Self.spec("new", "beta", priority: 5),
            Self.spec("off", "alpha", enabled: false),
        ], catalog: catalog)
        #expect(Set(summary.removed) == ["drop", "retype"])
        #expect(summary.added == ["new", "retype"])
        #expect(summary.changed == ["keep"])
        #expect(summary.failures.isEmpty)
        #expect(summary.reloaded == 2)  // keep and code
        #expect(summary.description.contains("reloaded 2 modules"))
        let since = Array(recorder.all[before...])
        // Removed ones: teardown then unmount, reverse order.
        #expect(since.prefix(4) == ["retype.teardown", "retype.unmount", "drop.teardown", "drop.unmount"])
        #expect(since.contains("new.setup") && since.contains("new.init"))
        #expect(since.contains("keep sees level=2"), "kept modules reload with their new settings")
        #expect(since.contains("code.reload"), "modules registered in code are kept and reloaded")
        #expect(!since.contains("new.reload") && !since.contains { $0.hasPrefix("retype sees") })
        // keep moved to its new priority.
        #expect(hive.moduleNames == ["new", "retype", "code", "keep"])
        #expect(hive.descriptor(named: "keep")?.priority == -200)
        await hive.stop()
        #expect(recorder.modules(for: "teardown").suffix(4) == ["keep", "code", "retype", "new"])
    }

    @Test func aFactoryErrorChangesNothing() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await startedHive(recorder)
        let names = hive.moduleNames
        let before = recorder.all
        let error = await #expect(throws: HiveError.self) {
            _ = try await hive.reload(to: [Self.spec("keep", "alpha", level: 9), Self.spec("bad", "broken")], catalog: catalog)
        }
        #expect(error?.module == "bad")
        #expect(error?.message.contains("cannot build") == true)
        let unknown = await #expect(throws: HiveError.self) {
            _ = try await hive.reload(to: [Self.spec("keep", "alpha"), Self.spec("odd", "gamma")], catalog: catalog)
        }
        #expect(unknown?.code == .unknownModuleType)
        #expect(unknown?.module == "odd")
        let duplicate = await #expect(throws: HiveError.self) {
            _ = try await hive.reload(to: [Self.spec("keep", "alpha", level: 9), Self.spec("keep", "alpha")], catalog: catalog)
        }
        #expect(duplicate?.code == .duplicateModule)
        #expect(duplicate?.module == "keep")
        let clash = await #expect(throws: HiveError.self) {
            _ = try await hive.reload(to: [Self.spec("keep", "alpha"), Self.spec("code", "alpha")], catalog: catalog)
        }
        #expect(clash?.code == .duplicateModule)
        #expect(clash?.module == "code")
        #expect(recorder.all == before)
        #expect(hive.moduleNames == names)
        #expect(try hive.descriptor(named: "keep")?.settings.int("level") == 0)
        #expect(hive.phase == .running)
        await hive.stop()
    }

    @Test func anAddedModuleWhoseInitFailsIsReportedAndLeftOut() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await startedHive(recorder)
        let summary = try await hive.reload(to: [
            Self.spec("keep", "alpha"), Self.spec("drop", "alpha"), Self.spec("retype", "alpha"),
            Self.spec("sad", "failsInit"),
        ], catalog: catalog)
        #expect(summary.added.isEmpty)
        #expect(summary.failures.map(\.module) == ["sad"])
        #expect(summary.failures.first?.event == .`init`)
        #expect(hive.module(named: "sad") == nil)
        #expect(summary.reloaded == 4)
        await hive.stop()
    }

    @Test func reloadIsRefusedBeforeStart() async throws {
        let hive = try makeHive([])
        let error = await #expect(throws: HiveError.self) {
            _ = try await hive.reload(to: [], catalog: ModuleCatalog())
        }
        #expect(error?.code == .refusedEvent)
    }
}
