@testable import HiveDaemon
import HiveKit
import Logging
import Testing

@Suite struct HiveLoggingTests {
    @Test(arguments: [
        ("trace", Logger.Level.trace), ("debug", .debug), ("info", .info), ("notice", .notice),
        ("warning", .warning), ("error", .error), ("critical", .critical),
        ("WARNING", .warning), (" Info ", .info), ("warn", .warning),
    ])
    func parsesConfigNames(name: String, level: Logger.Level) {
        #expect(HiveLogging.parseLevel(name) == level)
    }

    @Test func rejectsUnknownNames() {
        #expect(HiveLogging.parseLevel("verbose") == nil)
        #expect(HiveLogging.parseLevel("") == nil)
    }

    @Test func levelNamesInOrder() {
        #expect(HiveLogging.levelNames == ["trace", "debug", "info", "notice", "warning", "error", "critical"])
    }

    @Test func makesTheHandlerOfTheTarget() {
        let none = SystemdEnvironment()
        #expect(HiveLogging.makeHandler(target: .journal, environment: none) is JournalLogHandler)
        #expect(HiveLogging.makeHandler(target: .stderr, environment: none) is StderrLogHandler)
        #expect(HiveLogging.makeHandler(target: .auto, environment: none) is StderrLogHandler)
    }
}

extension ProcessEnvironmentSuite {
    @Suite struct SharedLogLevelTests {
        @Test func handlersFollowSharedLevelUntilTheySetTheirOwn() {
            let saved = HiveLogging.level
            defer { HiveLogging.level = saved }

            HiveLogging.level = .notice
            var journal = HiveLogging.makeHandler(target: .journal, environment: SystemdEnvironment())
            var plain = HiveLogging.makeHandler(target: .stderr, environment: SystemdEnvironment())
            #expect(journal.logLevel == .notice && plain.logLevel == .notice)

            HiveLogging.level = .debug  // a reload changing log.level
            #expect(journal.logLevel == .debug && plain.logLevel == .debug)

            journal.logLevel = .error
            plain.logLevel = .critical
            HiveLogging.level = .trace
            #expect(journal.logLevel == .error && plain.logLevel == .critical)
        }
    }
}
