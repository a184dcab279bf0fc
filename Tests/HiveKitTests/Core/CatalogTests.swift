import HiveKit
import TestSupport
import Testing

@Suite struct CatalogTests {
    static func catalog(_ recorder: Recorder) -> ModuleCatalog {
        var catalog = ModuleCatalog()
        catalog.register("plain") { _ in ScriptedModule(recorder) }
        catalog.register("picky", settings: ["size"]) { descriptor in
            guard try descriptor.settings.int("size") != nil else {
                throw TestFailure("size is required")
            }
            return ScriptedModule(recorder)
        }
        return catalog
    }

    static func descriptor(_ name: String, _ type: String, enabled: Bool = true, line: Int? = nil,
                           settings: [String: SettingValue] = [:]) -> ModuleDescriptor {
        ModuleDescriptor(
            name: name, type: type, settings: Settings(settings, owner: name), isEnabled: enabled,
            location: line.map { SourceLocation(path: "hived.yaml", line: $0) })
    }

    @Test func buildsEnabledModulesInOrder() throws {
        let catalog = Self.catalog(Recorder())
        #expect(catalog.typeNames == ["picky", "plain"])
        #expect(catalog.contains("plain"))
        #expect(!catalog.contains("fancy"))
        let modules = try catalog.instantiate([
            Self.descriptor("one", "plain"), Self.descriptor("off", "plain", enabled: false),
            Self.descriptor("two", "picky", settings: ["size": .int(3)]),
        ])
        #expect(modules.map(\.descriptor.name) == ["one", "two"])
    }

    @Test func unknownTypeNamesTheModuleTypeAndLocation() {
        let error = #expect(throws: HiveError.self) {
            _ = try Self.catalog(Recorder()).instantiate([Self.descriptor("cache", "memcache", line: 12)])
        }
        #expect(error?.code == .unknownModuleType)
        #expect(error?.module == "cache")
        #expect(error?.description.hasPrefix("hived.yaml:12: module 'cache'") == true)
        #expect(error?.message.contains("'memcache'") == true)
        #expect(error?.message.contains("picky, plain") == true)
    }

    @Test func aDescriptorWithNoTypeNamesTheModule() {
        let error = #expect(throws: HiveError.self) {
            _ = try Self.catalog(Recorder()).instantiate(ModuleDescriptor(name: "untyped"))
        }
        #expect(error?.code == .unknownModuleType)
        #expect(error?.module == "untyped")
        #expect(error?.message == "no module type (known: picky, plain)")
    }

    @Test func duplicateNameNamesTheModuleEvenWhenDisabled() {
        let error = #expect(throws: HiveError.self) {
            _ = try Self.catalog(Recorder()).instantiate([
                Self.descriptor("a", "plain"), Self.descriptor("a", "plain", enabled: false, line: 7),
            ])
        }
        #expect(error?.code == .duplicateModule)
        #expect(error?.module == "a")
        #expect(error?.location?.line == 7)
    }

    @Test func factoryErrorsNameTheModule() {
        let error = #expect(throws: HiveError.self) {
            _ = try Self.catalog(Recorder()).instantiate([Self.descriptor("p", "picky", line: 3)])
        }
        #expect(error?.code == .invalidSettings)
        #expect(error?.module == "p")
        #expect(error?.message.contains("size is required") == true)
        // A HiveError from the factory passes through unchanged.
        let typed = #expect(throws: HiveError.self) {
            _ = try Self.catalog(Recorder()).instantiate([Self.descriptor("p", "picky", settings: ["size": .string("big")])])
        }
        #expect(typed?.module == "p")
        #expect(typed?.message.contains("'size' must be an integer") == true)
    }

    @Test func aTypeRegisteredWithNoKeysRefusesEverySetting() {
        let error = #expect(throws: HiveError.self) {
            _ = try Self.catalog(Recorder()).instantiate([Self.descriptor("p", "plain", line: 4, settings: ["tll": .string("5s")])])
        }
        #expect(error?.code == .invalidSettings)
        #expect(error?.description == "hived.yaml:4: module 'p': unknown setting 'tll'; this module takes no settings")
    }

    @Test func aKeyTheTypeDoesNotListIsRefusedBeforeItsFactoryRuns() {
        let built = Recorder()
        var catalog = ModuleCatalog()
        catalog.register("cache", settings: ["ttl", "capacity"]) { _ in
            built.append("built")
            return ScriptedModule(built)
        }
        let error = #expect(throws: HiveError.self) {
            _ = try catalog.instantiate(Self.descriptor("c", "cache", settings: ["ttl": .string("5s"), "capasity": .int(3)]))
        }
        #expect(error?.module == "c")
        #expect(error?.message == "unknown setting 'capasity'; expected ttl, capacity")
        #expect(built.all.isEmpty)
        _ = try? catalog.instantiate(Self.descriptor("c", "cache", settings: ["ttl": .string("5s"), "capacity": .int(3)]))
        #expect(built.all == ["built"])
    }

    @Test func aTypeRegisteredWithAnyKeysTakesFreeFormSettings() throws {
        var catalog = ModuleCatalog()
        catalog.register("free", settings: .any) { descriptor in
            guard try descriptor.settings.string("anything") == "goes" else { throw TestFailure("not read") }
            return ScriptedModule(Recorder())
        }
        _ = try catalog.instantiate(Self.descriptor("f", "free", settings: ["anything": .string("goes"), "else": .bool(true)]))
    }

    @Test func aConfigurableModuleTakesTheKeysItLists() throws {
        var catalog = ModuleCatalog()
        catalog.register(BareModule.self)
        catalog.register(SizedModule.self, name: "sized")
        let bare = #expect(throws: HiveError.self) {
            _ = try catalog.instantiate(Self.descriptor("b", "BareModule", settings: ["size": .int(1)]))
        }
        #expect(bare?.message == "unknown setting 'size'; this module takes no settings")
        let sized = #expect(throws: HiveError.self) {
            _ = try catalog.instantiate(Self.descriptor("s", "sized", settings: ["sise": .int(1)]))
        }
        #expect(sized?.message == "unknown setting 'sise'; expected size")
        _ = try catalog.instantiate(Self.descriptor("s", "sized", settings: ["size": .int(1)]))
    }

    @Test func aHiveBuiltFromTheCatalogRuns() async throws {
        let recorder = Recorder()
        let modules = try Self.catalog(recorder).instantiate([Self.descriptor("x", "plain"), Self.descriptor("y", "plain")])
        let hive = try makeHive(modules)
        try await hive.start()
        #expect(recorder.modules(for: "init") == ["x", "y"])
        await hive.stop()
    }
}

/// A configurable module type that lists no settings, so takes none.
private struct BareModule: ConfigurableModule {
    init(_ descriptor: ModuleDescriptor) {}
}

/// A configurable module type that takes `size`.
private struct SizedModule: ConfigurableModule {
    static let settingKeys: SettingKeys = ["size"]
    init(_ descriptor: ModuleDescriptor) {}
}
