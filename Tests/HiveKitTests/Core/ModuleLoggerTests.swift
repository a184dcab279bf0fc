import HiveKit
import TestSupport
import Testing

/// A module's logger reports the module and the event the hive delivers when a line is
/// logged, whoever logs it: not the event during which the logger was handed out.
@Suite struct ModuleLoggerTests {
    @Test func handlerLinesCarryTheOwnerAndTheEventThatIsRunning() async throws {
        let logs = LogStore()
        let hive = try makeHive([
            (ScriptedModule(Recorder(), [
                .setup: .run { context in
                    let logger = context.logger
                    try context.router.register("hive://worker/poke") { _ in
                        logger.info("poked")
                        return true
                    }
                    try context.mediator.register("count") { _ in
                        logger.info("counted")
                        return 1
                    }
                },
            ]), ModuleDescriptor(name: "worker")),
            (ScriptedModule(Recorder(), [
                .reload: .run { context in
                    _ = try await context.router.open("hive://worker/poke")
                    _ = try await context.mediator.perform(target: "worker", action: "count")
                    context.logger.info("done")
                },
            ]), ModuleDescriptor(name: "caller")),
        ], logs: logs)
        try await hive.start()
        try await hive.send(.ready)
        try await hive.send(.reload)
        _ = try await hive.router.open("hive://worker/poke")  // between events
        let lines = logs.all.filter { ["poked", "counted", "done"].contains($0.message) }
        #expect(lines.map(\.message) == ["poked", "counted", "done", "poked"])
        #expect(lines.map { $0.metadata["module"] } == ["worker", "worker", "caller", "worker"])
        #expect(lines.map { $0.metadata["event"] } == ["reload", "reload", "reload", nil], "not setup, where they were registered")
        await hive.stop()
    }

    @Test func aLineThatNamesItsEventKeepsIt() async throws {
        let logs = LogStore()
        let hive = try makeHive([
            (ScriptedModule(Recorder(), [
                .`init`: .run { context in context.logger.info("explicit", metadata: ["event": "mine"]) },
            ]), ModuleDescriptor(name: "m")),
        ], logs: logs)
        try await hive.start()
        #expect(logs.all.first { $0.message == "explicit" }?.metadata["event"] == "mine")
        await hive.stop()
    }
}
