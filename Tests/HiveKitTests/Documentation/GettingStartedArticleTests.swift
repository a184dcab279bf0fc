import HiveKit
import Logging
import TestSupport
import Testing

// The code of HiveKit.docc/GettingStarted.md, compiled and run: every block of the article
// is this file's text (DocumentationCodeTests checks that).

/// Other modules rely on the database, so it is a basic module: it starts first and
/// stops last.
struct Database: Module {
    func setup(_ context: ModuleContext) async throws {
        let path = try context.settings.string("path") ?? "/var/lib/app/db"
        context.logger.info("opening \(path)")
    }

    func teardown(_ context: ModuleContext) async throws {
        context.logger.info("closed")
    }
}

/// Serves once the hive is ready, and answers custom events.
struct Frontend: Module {
    func ready(_ context: ModuleContext) async throws {
        context.logger.info("serving")
    }

    func custom(_ context: ModuleContext) async throws {
        context.logger.info("\(context.customEventName ?? "?"), because \(context.customParameters["reason"] ?? "?")")
    }

    func terminate(_ context: ModuleContext) async throws {
        context.logger.info("no longer serving")
    }
}

func runTheHive(logger: Logger) async throws {
    let hive = try Hive(HiveConfiguration(environment: .production, logger: logger), modules: [
        (Database(), ModuleDescriptor(name: "db", level: .basic, priority: 100)),
        (Frontend(), ModuleDescriptor(name: "frontend")),
    ])
    try await hive.start()                  // setup, then init, in order
    try await hive.send(.ready)
    try await hive.send(.custom(name: "rotate", params: ["reason": "size"]))
    await hive.stop()                       // terminate in order, teardown in reverse
}

@Suite struct GettingStartedArticleTests {
    /// The lines the article says the hive logs, in its order: module, event, message.
    @Test func theModulesLogWhatTheArticleSaysInItsOrder() async throws {
        let logs = LogStore()
        try await runTheHive(logger: logs.logger)
        let lines = logs.all.compactMap { record in
            record.metadata["module"].map { "[\($0)] \(record.metadata["event"] ?? "-"): \(record.message)" }
        }
        #expect(lines == [
            "[db] setup: opening /var/lib/app/db",
            "[frontend] ready: serving",
            "[frontend] custom: rotate, because size",
            "[frontend] terminate: no longer serving",
            "[db] teardown: closed",
        ])
    }
}
