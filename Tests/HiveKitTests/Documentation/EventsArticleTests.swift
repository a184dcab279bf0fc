import HiveKit
import TestSupport
import Testing

// The code of HiveKit.docc/Events.md, compiled and run: every block of the article is this
// file's text (DocumentationCodeTests checks that).

/// Rotates its files on `custom:rotate`, through a handler of its own; every other custom
/// event still reaches its `custom` hook.
struct Rotator: Module {
    func setup(_ context: ModuleContext) async throws {
        context.setCustomEventHandler("rotate") { context in
            context.logger.info("rotating, because \(context.customParameters["reason"] ?? "asked")")
        }
    }

    func custom(_ context: ModuleContext) async throws {
        context.logger.info("\(context.customEventName ?? "?") is not mine")
    }
}

@Suite struct EventsArticleTests {
    @Test func aHandlerTakesItsEventAndTheHookTheRest() async throws {
        let logs = LogStore()
        let hive = try makeHive([(Rotator(), ModuleDescriptor(name: "rotator"))], logs: logs)
        try await hive.start()
        try await hive.send(.custom(name: "rotate", params: ["reason": "size"]))
        try await hive.send(.custom(name: "stats"))
        await hive.stop()
        let lines = logs.all.compactMap { record in record.metadata["module"].map { _ in record.message } }
        #expect(lines == ["rotating, because size", "stats is not mine"])
    }
}
