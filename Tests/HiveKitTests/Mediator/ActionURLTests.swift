import HiveKit
import TestSupport
import Testing

/// A module whose actions a URL may or may not reach.
struct Shop: Module {
    func setup(_ context: ModuleContext) async throws {
        try context.mediator.register("price", acceptsURLs: true) { request in
            let count = try request.parameter("count", as: Int.self)
            let unit = try request.parameter("unit", as: Double.self)
            return Double(count) * unit
        }
        try context.mediator.register("echo", acceptsURLs: true) { request in
            request.parameters.mapValues { "\($0)" }
        }
        try context.mediator.register("nativeRefund") { _ in "refunded" }
    }
}

/// URLs to actions (CTMediator's `performActionWithUrl:completion:`), native-only by default.
@Suite struct ActionURLTests {
    func startedHive() async throws -> Hive {
        let hive = try makeHive([(Shop(), ModuleDescriptor(name: "Shop"))])
        try await hive.start()
        return hive
    }

    @Test func aURLPerformsAnActionThatAcceptsURLs() async throws {
        let hive = try await startedHive()
        #expect(try await hive.mediator.perform(url: "aaa://Shop/price?count=3&unit=2.5", as: Double.self) == 7.5)
        #expect(hive.mediator.canPerform(url: "hive://Shop/price"))
        #expect(hive.profile.modules.first?.calls["action price"]?.calls == 1)
        await hive.stop()
    }

    @Test func theQueryWinsOverExtrasAndRepeatedItemsKeepTheLast() async throws {
        let hive = try await startedHive()
        let echoed = try await hive.mediator.perform(
            url: "hive://Shop/echo?a=1&a=2&b=x%20y", extras: ["a": 9, "c": true], as: [String: String].self)
        #expect(echoed == ["a": "2", "b": "x y", "c": "true"])
        await hive.stop()
    }

    @Test func actionsAreNativeOnlyByDefault() async throws {
        let hive = try await startedHive()
        #expect(try await hive.mediator.perform(target: "Shop", action: "nativeRefund", as: String.self) == "refunded")
        #expect(!hive.mediator.canPerform(url: "hive://Shop/nativeRefund"))
        let refused = await #expect(throws: HiveError.self) { try await hive.mediator.perform(url: "hive://Shop/nativeRefund") }
        #expect(refused?.code == .notFound)
        #expect(refused?.module == "Shop")
        #expect(refused?.message.hasPrefix("action 'nativeRefund' is native-only") == true)
        #expect(hive.mediator.definitions == [
            ActionDefinition(target: "Shop", name: "echo", acceptsURLs: true),
            ActionDefinition(target: "Shop", name: "nativeRefund", acceptsURLs: false),
            ActionDefinition(target: "Shop", name: "price", acceptsURLs: true),
        ])
        await hive.stop()
    }

    @Test func aModulesNotFoundHandlerDoesNotOpenNativeActionsToURLs() async throws {
        let hive = try await startedHive()
        hive.mediator.setNotFoundHandler { _ in "fallback" }
        await #expect(throws: HiveError.self) { try await hive.mediator.perform(url: "hive://Shop/nativeRefund") }
        let missing = try await hive.mediator.perform(url: "hive://Shop/nothing", as: String.self)
        #expect(missing == "fallback")
        await hive.stop()
    }

    @Test func typedParametersFromAURLAreParsedAndNamedWhenWrong() async throws {
        let hive = try await startedHive()
        let error = await #expect(throws: HiveError.self) {
            try await hive.mediator.perform(url: "hive://Shop/price?count=three&unit=1")
        }
        #expect(error?.code == .invalidParameter)
        #expect(error?.message == "action 'price': parameter 'count' is the string 'three', not a Int")
        await hive.stop()
    }

    @Test(arguments: ["hive://Shop", "hive://Shop/price/extra", "/Shop/price", "Shop/price", "hive:/Shop/price", "", "hive://Shop/a b"])
    func aURLThatNamesNoActionIsInvalid(url: String) async throws {
        let hive = try await startedHive()
        let error = await #expect(throws: HiveError.self) { try await hive.mediator.perform(url: url) }
        #expect(error?.code == .invalidRoute)
        #expect(!hive.mediator.canPerform(url: url))
        await hive.stop()
    }
}
