import HiveKit
import TestSupport
import Testing

/// A target whose missing actions its own not-found action answers (CTMediator's `notFound:`).
struct Forgiving: Module {
    func setup(_ context: ModuleContext) async throws {
        try context.mediator.register("known") { _ in "known" }
        try context.mediator.setNotFoundAction { request in "forgiving has no \(request.action)" }
    }
}

@Suite struct TargetNotFoundTests {
    @Test func aTargetsNotFoundActionAnswersBeforeTheGlobalHandler() async throws {
        let hive = try makeHive([
            (Forgiving(), ModuleDescriptor(name: "forgiving")),
            (Calculator(), ModuleDescriptor(name: "calc")),
        ])
        try await hive.start()
        hive.mediator.setNotFoundHandler { request in "global: \(request.target).\(request.action)" }
        #expect(try await hive.mediator.perform(target: "forgiving", action: "known", as: String.self) == "known")
        #expect(try await hive.mediator.perform(target: "forgiving", action: "other", as: String.self) == "forgiving has no other")
        #expect(try await hive.mediator.perform(target: "calc", action: "sub", as: String.self) == "global: calc.sub")
        #expect(try await hive.mediator.perform(target: "nobody", action: "x", as: String.self) == "global: nobody.x")
        #expect(hive.profile.modules.first { $0.name == "forgiving" }?.calls["action (not found)"]?.calls == 1)
        await hive.stop()
    }

    @Test func theNotFoundActionGoesWithItsModule() async throws {
        let hive = try makeHive([(Forgiving(), ModuleDescriptor(name: "forgiving"))])
        try await hive.start()
        try await hive.unregister(named: "forgiving")
        let error = await #expect(throws: HiveError.self) { try await hive.mediator.perform(target: "forgiving", action: "x") }
        #expect(error?.code == .notFound)
        await hive.stop()
    }

    @Test func onlyModulesHaveNotFoundActions() {
        let error = #expect(throws: HiveError.self) { try Hive().mediator.setNotFoundAction { _ in () } }
        #expect(error?.code == .unknownModule)
    }
}
