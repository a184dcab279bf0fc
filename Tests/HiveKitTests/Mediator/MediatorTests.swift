import HiveKit
import Synchronization
import TestSupport
import Testing

/// A module exposing `add` and `fail` actions from its setup.
struct Calculator: Module {
    func setup(_ context: ModuleContext) async throws {
        try context.mediator.register("add") { request in
            try request.parameter("a", as: Int.self) + request.parameter("b", as: Int.self)
        }
        try context.mediator.register("fail") { _ in throw CalculatorError() }
    }
}
struct CalculatorError: Error {}

@Suite struct MediatorTests {
    func startedHive() async throws -> Hive {
        let hive = try makeHive([(Calculator(), ModuleDescriptor(name: "calc"))])
        try await hive.start()
        return hive
    }

    @Test func performsATargetsAction() async throws {
        let hive = try await startedHive()
        let sum = try await hive.mediator.perform(target: "calc", action: "add", params: ["a": 2, "b": 3], as: Int.self)
        #expect(sum == 5)
        #expect(try await hive.mediator.perform(target: "calc", action: "add", params: ["a": 1, "b": 1]) as? Int == 2)
        #expect(hive.mediator.canPerform(target: "calc", action: "add"))
        #expect(!hive.mediator.canPerform(target: "calc", action: "sub"))
        #expect(hive.mediator.actions == ["calc": ["add", "fail"]])
        #expect(hive.profile.modules.first?.calls["action add"]?.calls == 2)
        await hive.stop()
    }

    @Test func parameterAndResultTypesAreChecked() async throws {
        let hive = try await startedHive()
        let missing = await #expect(throws: HiveError.self) {
            try await hive.mediator.perform(target: "calc", action: "add", params: ["a": 1])
        }
        #expect(missing?.code == .invalidParameter)
        let wrong = await #expect(throws: HiveError.self) {
            try await hive.mediator.perform(target: "calc", action: "add", params: ["a": 1, "b": "2"])
        }
        #expect(wrong?.code == .invalidParameter)
        #expect(wrong?.message == "action 'add': parameter 'b' is the string '2', not a Int", "from code, strings are not parsed")
        let result = await #expect(throws: HiveError.self) {
            try await hive.mediator.perform(target: "calc", action: "add", params: ["a": 1, "b": 2], as: String.self)
        }
        #expect(result?.code == .typeMismatch)
        let failed = await #expect(throws: HiveError.self) { try await hive.mediator.perform(target: "calc", action: "fail") }
        #expect(failed?.code == .handlerFailed)
        #expect(failed?.module == "calc")
        #expect(failed?.underlying is CalculatorError)
        await hive.stop()
    }

    @Test func missingTargetsAndActionsAreClearErrors() async throws {
        let hive = try await startedHive()
        let action = await #expect(throws: HiveError.self) { try await hive.mediator.perform(target: "calc", action: "sub") }
        #expect(action?.code == .notFound)
        #expect(action?.message == "target 'calc' has no action 'sub' (actions: add, fail)")
        let target = await #expect(throws: HiveError.self) { try await hive.mediator.perform(target: "maths", action: "add") }
        #expect(target?.code == .notFound)
        #expect(target?.message == "no target 'maths' for action 'add': no module named 'maths' is registered")
        await hive.stop()
    }

    @Test func theNotFoundHandlerAnswersInstead() async throws {
        let hive = try await startedHive()
        hive.mediator.setNotFoundHandler { request in "no \(request.target).\(request.action)" }
        let answer = try await hive.mediator.perform(target: "maths", action: "add", as: String.self)
        #expect(answer == "no maths.add")
        hive.mediator.setNotFoundHandler(nil)
        await #expect(throws: HiveError.self) { try await hive.mediator.perform(target: "maths", action: "add") }
        await hive.stop()
    }

    @Test func registrationRules() async throws {
        let hive = Hive()
        let viaHive = #expect(throws: HiveError.self) { try hive.mediator.register("x") { _ in () } }
        #expect(viaHive?.code == .unknownModule)
        struct Twice: Module {
            func setup(_ context: ModuleContext) async throws {
                try context.mediator.register("x") { _ in 1 }
                let error = #expect(throws: HiveError.self) { try context.mediator.register("x") { _ in 2 } }
                #expect(error?.code == .duplicateRegistration)
                try context.mediator.register("x", replacing: true) { _ in 3 }
            }
        }
        try await hive.register(Twice(), as: ModuleDescriptor(name: "twice"))
        try await hive.start()
        #expect(try await hive.mediator.perform(target: "twice", action: "x", as: Int.self) == 3)
        await hive.stop()
    }
}
