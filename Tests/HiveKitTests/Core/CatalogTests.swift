import HiveKit
import Testing

@Suite struct CatalogTests {
    static func catalog(_ recorder: Recorder) -> ModuleCatalog {
        var catalog = ModuleCatalog()
        catalog.register("plain") { _ in ScriptedModule(recorder) }
        catalog.register("picky") { descriptor in
            guard try descriptor.settings.int("size") != nil else {
                throw TestFailure("size is required")
            }
            return ScriptedModule(recorder)
        }
        return catalog
    }

    static func spec(_ name: String, _ type: String, enabled: Bool = true, line: Int? = nil,
                     settings: [String: SettingValue] = [:]) -> ModuleSpec {
        ModuleSpec(
            ModuleDescriptor(name: name, settings: Settings(settings, owner: name)), type: type, isEnabled: enabled,
            location: line.map { SourceLocation(path: "hived.yaml", line: $0) })
    }

    @Test func buildsEnabledModulesInOrder() throws {
        let catalog = Self.catalog(Recorder())
        #expect(catalog.typeNames == ["picky", "plain"])
        #expect(catalog.contains("plain"))
        #expect(!catalog.contains("fancy"))
        let registrations = try catalog.registrations(for: [
            Self.spec("one", "plain"), Self.spec("off", "plain", enabled: false),
            Self.spec("two", "picky", settings: ["size": .int(3)]),
        ])
        #expect(registrations.map(\.descriptor.name) == ["one", "two"])
    }

    @Test func unknownTypeNamesTheModuleTypeAndLocation() {
        let error = #expect(throws: HiveError.self) {
            _ = try Self.catalog(Recorder()).registrations(for: [Self.spec("cache", "memcache", line: 12)])
        }
        #expect(error?.code == .unknownModuleType)
        #expect(error?.module == "cache")
        #expect(error?.description.hasPrefix("hived.yaml:12: module 'cache'") == true)
        #expect(error?.message.contains("'memcache'") == true)
        #expect(error?.message.contains("picky, plain") == true)
    }

    @Test func duplicateNameNamesTheModuleEvenWhenDisabled() {
        let error = #expect(throws: HiveError.self) {
            _ = try Self.catalog(Recorder()).registrations(for: [
                Self.spec("a", "plain"), Self.spec("a", "plain", enabled: false, line: 7),
            ])
        }
        #expect(error?.code == .duplicateModule)
        #expect(error?.module == "a")
        #expect(error?.location?.line == 7)
    }

    @Test func factoryErrorsNameTheModule() {
        let error = #expect(throws: HiveError.self) {
            _ = try Self.catalog(Recorder()).registrations(for: [Self.spec("p", "picky", line: 3)])
        }
        #expect(error?.code == .invalidSettings)
        #expect(error?.module == "p")
        #expect(error?.message.contains("size is required") == true)
        // A HiveError from the factory passes through unchanged.
        let typed = #expect(throws: HiveError.self) {
            _ = try Self.catalog(Recorder()).registrations(for: [Self.spec("p", "picky", settings: ["size": .string("big")])])
        }
        #expect(typed?.module == "p")
        #expect(typed?.message.contains("'size' must be an integer") == true)
    }

    @Test func aHiveBuiltFromTheCatalogRuns() async throws {
        let recorder = Recorder()
        let registrations = try Self.catalog(recorder).registrations(for: [Self.spec("x", "plain"), Self.spec("y", "plain")])
        let hive = try makeHive(registrations)
        try await hive.start()
        #expect(recorder.modules(for: "init") == ["x", "y"])
        await hive.stop()
    }
}
