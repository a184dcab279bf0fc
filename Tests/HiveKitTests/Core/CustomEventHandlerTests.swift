import HiveKit
import TestSupport
import Testing

/// BeeHive's `registerCustomEvent:withModuleInstance:andSelectorStr:` (a module's own
/// handler of one custom event, by name) and `registerDynamicModule:shouldTriggerInitEvent:NO`
/// (joining a running hive without `setup` or `init`), with BeeHive's example modules and
/// its custom event numbers (`BHMDidCustomEvent = 1000`, a business event above it).
@Suite struct CustomEventHandlerTests {
    @Test func aModulesHandlerOfOneCustomEventRunsInsteadOfItsCustomHook() async throws {
        let recorder = Recorder()
        let shop = ScriptedModule(recorder, [
            .setup: .run { context in
                context.setCustomEventHandler("1001") { context in
                    recorder.append("ShopModule.handled \(context.customEventName ?? "") \(context.customParameters)")
                }
            },
        ])
        let hive = try makeHive([
            (shop, ModuleDescriptor(name: "ShopModule")),
            (ScriptedModule(recorder), ModuleDescriptor(name: "TradeModule")),
        ])
        try await hive.start()
        try await hive.send(.custom(name: "1000"))
        let report = try await hive.send(.custom(name: "1001", params: ["sku": "42"]))
        #expect(report.delivered == 2)
        #expect(recorder.all.filter { $0.contains("custom") || $0.contains("handled") } == [
            "ShopModule.custom", "TradeModule.custom",
            "ShopModule.handled 1001 [\"sku\": \"42\"]", "TradeModule.custom",
        ])
        #expect(hive.profile.modules.first { $0.name == "ShopModule" }?.events[.custom]?.calls == 2)
        await hive.stop()
    }

    @Test func aHandlerThatThrowsIsTheModulesFailureAndCanBeRemoved() async throws {
        let recorder = Recorder()
        let module = ScriptedModule(recorder, [
            .setup: .run { context in
                context.setCustomEventHandler("rotate") { _ in throw TestFailure("disk full") }
            },
            .ready: .run { context in context.setCustomEventHandler("rotate", nil) },
        ])
        let hive = try makeHive([(module, ModuleDescriptor(name: "logs"))])
        try await hive.start()
        let failed = try await hive.send(.custom(name: "rotate"))
        #expect(failed.failures.map(\.message) == ["disk full"])
        #expect(failed.failures.first?.module == "logs")
        try await hive.send(.ready)
        #expect(try await hive.send(.custom(name: "rotate")).failures.isEmpty)
        #expect(recorder.modules(for: "custom") == ["logs"], "back to the hook")
        await hive.stop()
    }

    @Test func aModuleJoinsARunningHiveWithoutSetupOrInit() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "HomeModule"))])
        try await hive.start()
        try await hive.send(.ready)
        try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "TradeModule"), settingUp: false)
        #expect(recorder.modules(for: "setup") == ["HomeModule"])
        #expect(recorder.modules(for: "ready") == ["HomeModule"], "no catching up either")
        #expect(hive.activeModuleNames == ["HomeModule", "TradeModule"])
        try await hive.send(.custom(name: "1000"))
        #expect(recorder.modules(for: "custom") == ["HomeModule", "TradeModule"])
        await hive.stop()
        #expect(recorder.modules(for: "teardown") == ["TradeModule", "HomeModule"])
    }

    @Test func registeredBeforeStartWithoutSetupItSkipsStartUp() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "HomeModule"))])
        try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "TradeModule"), settingUp: false)
        try await hive.start()
        try await hive.send(.ready)
        #expect(recorder.modules(for: "init") == ["HomeModule"])
        #expect(recorder.modules(for: "ready") == ["HomeModule", "TradeModule"])
        await hive.stop()
    }
}
