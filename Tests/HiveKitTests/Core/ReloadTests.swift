import HiveKit
import Synchronization
import TestSupport
import Testing

/// `Hive.reload(to:catalog:)`: all or nothing, in two phases (prepare, then commit or
/// abort), with the result saying which phase failed.
@Suite struct ReloadTests {
    static func catalog(_ recorder: Recorder) -> ModuleCatalog {
        var catalog = ModuleCatalog()
        for type in ["alpha", "beta"] {
            catalog.register(type, settings: ["level"]) { _ in
                ScriptedModule(recorder, [.reload: .run { context in
                    recorder.append("\(context.moduleName) sees level=\(try context.settings.int("level") ?? -1)")
                }])
            }
        }
        catalog.register("picky", settings: ["level"]) { _ in Picky(recorder: recorder) }
        catalog.register("broken", settings: ["level"]) { _ in throw TestFailure("cannot build") }
        catalog.register("failsInit", settings: ["level"]) { _ in ScriptedModule(recorder, [.`init`: .fail("init refused")]) }
        return catalog
    }

    /// Refuses a `level` above 5 in `validateReload`; records what it is asked.
    struct Picky: Module {
        let recorder: Recorder
        func validateReload(_ context: ModuleContext) async throws {
            let level = try context.settings.int("level") ?? 0
            recorder.append("\(context.moduleName).validateReload level=\(level)")
            if level > 5 { throw TestFailure("level \(level) is too high") }
        }
        func reload(_ context: ModuleContext) async throws { recorder.append("\(context.moduleName).reload") }
        func teardown(_ context: ModuleContext) async throws { recorder.append("\(context.moduleName).teardown") }
    }

    static func spec(
        _ name: String, _ type: String, priority: Int = 0, level: Int = 0, enabled: Bool = true, line: Int? = nil
    ) -> ModuleDescriptor {
        ModuleDescriptor(
            name: name, type: type, priority: priority, settings: Settings(["level": .int(level)]), isEnabled: enabled,
            location: line.map { SourceLocation(path: "hived.yaml", line: $0) })
    }

    static let initial = [spec("keep", "alpha", priority: 10), spec("drop", "alpha"), spec("retype", "alpha")]

    func startedHive(_ recorder: Recorder, _ specs: [ModuleDescriptor] = initial) async throws -> (Hive, ModuleCatalog) {
        let catalog = Self.catalog(recorder)
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "code", priority: -100))])
        for spec in specs { try await hive.register(spec, catalog: catalog) }
        try await hive.start()
        try await hive.send(.ready)
        return (hive, catalog)
    }

    @Test func anAppliedReloadRemovesAddsChangesAndReloadsTheKeptOnes() async throws {
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
        #expect(summary.isApplied)
        #expect(summary.removed == ["retype", "drop"])
        #expect(summary.added == ["new", "retype"])
        #expect(summary.changed == ["keep"])
        #expect(summary.failures.isEmpty)
        #expect(summary.reloaded == 2)  // keep and code
        #expect(summary.description == "added new, retype; removed retype, drop; changed keep; 2 modules got reload")
        let since = Array(recorder.all[before...])
        #expect(since == [
            // Prepare: the type change is the one removal before the additions are set up.
            "retype.terminate", "retype.teardown", "retype.unmount",
            "new.setup", "retype.setup", "new.init", "retype.init",
            // Commit: removals, then reload (new settings) to the kept ones, then the
            // added ones reach the hive's phase.
            "drop.terminate", "drop.teardown", "drop.unmount",
            "code.reload", "keep.reload", "keep sees level=2",
            "new.ready", "retype.ready",
        ])
        #expect(hive.moduleNames == ["new", "retype", "code", "keep"])
        #expect(hive.descriptor(named: "keep")?.priority == -200)
        await hive.stop()
        #expect(recorder.modules(for: "teardown").suffix(4) == ["keep", "code", "retype", "new"])
    }

    @Test func aBuildFailureAbortsInTheBuildPhaseAndChangesNothing() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await startedHive(recorder)
        let names = hive.moduleNames
        let before = recorder.all
        let cases: [([ModuleDescriptor], HiveError.Code, String)] = [
            ([Self.spec("keep", "alpha", level: 9), Self.spec("bad", "broken", line: 7)], .invalidSettings, "bad"),
            ([Self.spec("keep", "alpha"), Self.spec("odd", "gamma")], .unknownModuleType, "odd"),
            ([Self.spec("keep", "alpha", level: 9), Self.spec("keep", "alpha")], .duplicateModule, "keep"),
            ([Self.spec("keep", "alpha"), Self.spec("code", "alpha")], .duplicateModule, "code"),
            ([ModuleDescriptor(name: "keep", type: "alpha", settings: Settings(["levle": .int(1)]))], .invalidSettings, "keep"),
        ]
        for (specs, code, module) in cases {
            let summary = try await hive.reload(to: specs, catalog: catalog)
            let failure = try #require(summary.failure)
            #expect(failure.phase == .build)
            #expect(failure.error.code == code)
            #expect(failure.error.module == module)
            #expect(!summary.isApplied)
        }
        let built = try #require(try await hive.reload(to: [Self.spec("bad", "broken", line: 7)], catalog: catalog).failure)
        #expect(built.description.hasPrefix("hived.yaml:7: module 'bad'"), "\(built)")
        #expect(built.description.contains("cannot build"))
        #expect(recorder.all == before)
        #expect(hive.moduleNames == names)
        #expect(try hive.descriptor(named: "keep")?.settings.int("level") == 0)
        #expect(hive.phase == .running)
        await hive.stop()
    }

    /// Prepare sets up and initializes the added modules while the old ones run; a
    /// failure there takes down the added ones that got set up and changes nothing else.
    @Test func anAddedModuleWhoseInitFailsAbortsTheReloadAndTheOldOnesRunUntouched() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await startedHive(recorder)
        let before = recorder.all.count
        let summary = try await hive.reload(to: [
            Self.spec("keep", "alpha", level: 3),
            Self.spec("fresh", "beta", priority: 50),
            Self.spec("sad", "failsInit", line: 12),
        ], catalog: catalog)
        let failure = try #require(summary.failure)
        #expect(failure.phase == .start)
        #expect(failure.error.module == "sad")
        #expect(failure.error.event == .`init`)
        #expect(failure.error.location == SourceLocation(path: "hived.yaml", line: 12))
        #expect("\(failure)" == "hived.yaml:12: module 'sad' (init): init refused")
        #expect(failure.rolledBack == ["fresh"])
        #expect(failure.lost.isEmpty)
        let since = Array(recorder.all[before...])
        #expect(since == [
            "fresh.setup", "sad.setup", "fresh.init", "sad.init",
            // The module whose hook failed receives nothing more; the other is taken down.
            "fresh.terminate", "fresh.teardown", "fresh.unmount",
        ], "no old module was torn down or reloaded")
        #expect(hive.moduleNames == ["keep", "drop", "retype", "code"])
        #expect(try hive.descriptor(named: "keep")?.settings.int("level") == 0, "kept settings unchanged")
        #expect(summary.added.isEmpty && summary.removed.isEmpty && summary.reloaded == 0)
        try await hive.send(.memoryWarning)
        #expect(recorder.modules(for: "memoryWarning") == ["keep", "drop", "retype", "code"])
        await hive.stop()
    }

    @Test func aKeptModuleRefusingItsNewSettingsAbortsTheReload() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await startedHive(recorder, [Self.spec("store", "picky"), Self.spec("other", "alpha")])
        let before = recorder.all.count
        let summary = try await hive.reload(to: [
            Self.spec("store", "picky", level: 9, line: 3), Self.spec("other", "alpha", level: 1),
            Self.spec("extra", "beta"),
        ], catalog: catalog)
        let failure = try #require(summary.failure)
        #expect(failure.phase == .validate)
        #expect(failure.error.module == "store")
        #expect("\(failure)" == "hived.yaml:3: module 'store' (reload): validateReload refused the new settings: level 9 is too high")
        #expect(Array(recorder.all[before...]) == ["store.validateReload level=9"], "nothing was set up, nothing reloaded")
        #expect(try hive.descriptor(named: "store")?.settings.int("level") == 0)
        #expect(hive.module(named: "extra") == nil)
        // Accepted settings go through, and validateReload is asked only when they change.
        let accepted = try await hive.reload(to: [Self.spec("store", "picky", level: 4), Self.spec("other", "alpha")], catalog: catalog)
        #expect(accepted.isApplied)
        let unchanged = try await hive.reload(to: [Self.spec("store", "picky", level: 4), Self.spec("other", "alpha")], catalog: catalog)
        #expect(unchanged.isApplied)
        #expect(recorder.all.filter { $0.hasPrefix("store.") } == [
            "store.validateReload level=9", "store.validateReload level=4", "store.reload", "store.reload",
        ])
        await hive.stop()
    }

    /// A module whose type changes is removed before its replacement is set up: if the
    /// replacement fails, there is no old instance to go back to, and the result says so.
    @Test func aReplacementThatFailsIsReportedAsLost() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await startedHive(recorder)
        let summary = try await hive.reload(to: [
            Self.spec("keep", "alpha"), Self.spec("drop", "alpha"), Self.spec("retype", "failsInit", line: 4),
        ], catalog: catalog)
        let failure = try #require(summary.failure)
        #expect(failure.phase == .start)
        #expect(failure.lost == ["retype"])
        #expect("\(failure)" == "module 'retype' was replaced and its new type failed: hived.yaml:4: module 'retype' (init): init refused")
        #expect(hive.moduleNames == ["keep", "drop", "code"])
        #expect(recorder.all.filter { $0.hasPrefix("retype.") }.suffix(5) == [
            "retype.terminate", "retype.teardown", "retype.unmount", "retype.setup", "retype.init",
        ])
        #expect(!recorder.all.contains("drop.teardown"), "the rest still runs")
        await hive.stop()
    }

    @Test func anAddedModuleReachesTheHivesPhaseSuspendedIncluded() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await startedHive(recorder)
        try await hive.send(.background)
        let summary = try await hive.reload(to: Self.initial + [Self.spec("new", "beta")], catalog: catalog)
        #expect(summary.isApplied)
        #expect(recorder.all.filter { $0.hasPrefix("new.") } == ["new.setup", "new.init", "new.ready", "new.background"])
        try await hive.send(.foreground)
        #expect(recorder.modules(for: "foreground").contains("new"))
        await hive.stop()
    }

    /// What a file cut right after `modules:` asks for: removing every configured module.
    @Test func aReloadRemovingEveryConfiguredModuleIsRefusedWhenTheCallerSaysSo() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await startedHive(recorder)
        let names = hive.moduleNames
        let before = recorder.all
        let refusal = HiveError(.invalidConfiguration, "enables no module")
        for specs in [[], [Self.spec("keep", "alpha", enabled: false)]] {
            let summary = try await hive.reload(to: specs, catalog: catalog, refusingToRemoveAll: refusal)
            let failure = try #require(summary.failure)
            #expect(failure.phase == .build)
            #expect(failure.error.message == "enables no module")
        }
        #expect(recorder.all == before, "nothing was delivered")
        #expect(hive.moduleNames == names)
        // Keeping one, or adding one, is no emptying; nor is a hive with no configured module.
        let one = try await hive.reload(to: [Self.spec("keep", "alpha")], catalog: catalog, refusingToRemoveAll: refusal)
        #expect(one.isApplied)
        #expect(one.removed == ["drop", "retype"])
        // Without a refusal, the same list removes them all; modules registered in code stay.
        let all = try await hive.reload(to: [], catalog: catalog)
        #expect(all.isApplied)
        #expect(all.removed == ["keep"])
        #expect(hive.moduleNames == ["code"])
        #expect(try await hive.reload(to: [], catalog: catalog, refusingToRemoveAll: refusal).isApplied)
        await hive.stop()
    }

    /// A module whose entry only moved in its file is kept as it was: not changed, not asked
    /// to validate, and the hive shows where it is declared now.
    @Test func aModuleThatOnlyMovedInItsFileIsNotChanged() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await startedHive(recorder, [Self.spec("p", "picky", level: 1, line: 3)])
        let summary = try await hive.reload(to: [Self.spec("p", "picky", level: 1, line: 9)], catalog: catalog)
        #expect(summary.isApplied)
        #expect(summary.changed.isEmpty)
        #expect(!recorder.all.contains { $0.contains("validateReload") })
        #expect(hive.descriptor(named: "p")?.location?.line == 9)
        await hive.stop()
    }

    /// A context kept past its hook reads the module's settings as they are now.
    @Test func aKeptContextReadsTheSettingsAfterAReload() async throws {
        let recorder = Recorder()
        let kept = Mutex<ModuleContext?>(nil)
        var catalog = Self.catalog(recorder)
        catalog.register("keeper", settings: ["level"]) { _ in
            ScriptedModule(recorder, [.`init`: .run { context in kept.withLock { $0 = context } }])
        }
        let hive = try makeHive([])
        try await hive.register(Self.spec("k", "keeper", level: 1), catalog: catalog)
        try await hive.start()
        let context = try #require(kept.withLock { $0 })
        #expect(try context.settings.int("level") == 1)
        #expect(try await hive.reload(to: [Self.spec("k", "keeper", level: 4)], catalog: catalog).changed == ["k"])
        #expect(try context.settings.int("level") == 4)
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
