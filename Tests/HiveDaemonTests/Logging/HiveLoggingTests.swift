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
        func output(_ target: LogTarget) -> DaemonLogHandler.Output? {
            (HiveLogging.makeHandler(target: target, identifier: "hived", environment: none) as? DaemonLogHandler)?.output
        }
        #expect(output(.journal) == .journal(identifier: "hived"))
        for target in [LogTarget.stderr, .auto] {
            guard case .stderr = output(target) else {
                Issue.record("\(target): \(String(describing: output(target)))")
                continue
            }
        }
    }
}

extension ProcessEnvironmentSuite {
    @Suite struct SharedLogLevelTests {
        @Test func handlersFollowSharedLevelUntilTheySetTheirOwn() {
            let saved = HiveLogging.level
            defer { HiveLogging.level = saved }

            HiveLogging.level = .notice
            var journal = HiveLogging.makeHandler(target: .journal, identifier: "hived", environment: SystemdEnvironment())
            var plain = HiveLogging.makeHandler(target: .stderr, identifier: "hived", environment: SystemdEnvironment())
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

@Suite struct LoggingCooperationTests {
    @Test func onlyTheEntryPointInstallsHiveDaemonsHandlers() {
        #expect(HiveLogging.choose(mayBootstrap: true, handlerInPlace: false, target: .journal) == .installed(.journal))
        #expect(HiveLogging.choose(mayBootstrap: true, handlerInPlace: false, target: .stderr) == .installed(.stderr))
    }

    @Test func aMainOfTheProgramsOwnKeepsTheProcesssHandlerWhateverItIs() {
        // Bootstrapped or not, a handler of the process's own or swift-log's StreamLogHandler:
        // the process owns swift-log, and a second bootstrap would trap.
        for inPlace in [false, true] {
            #expect(HiveLogging.choose(mayBootstrap: false, handlerInPlace: inPlace, target: .journal) == .external)
        }
    }

    @Test func aHandlerFoundInPlaceAtTheEntryPointIsKept() {
        #expect(HiveLogging.choose(mayBootstrap: true, handlerInPlace: true, target: .journal) == .external)
    }

    @Test func thisTestProcessHasNotBootstrappedSwiftLog() {
        #expect(!HiveLogging.processBootstrappedItsOwn())
    }

    @Test func theSetupSaysWhereLinesGoAndWrapsTheProcesssHandler() {
        #expect(LogSetup.installed(.journal).target == .journal && LogSetup.external.target == nil)
        #expect(LogSetup.external.logger(label: "mydaemon").handler is SharedLevelLogHandler)
    }
}

extension ProcessEnvironmentSuite {
    @Suite struct ExternalHandlerLevelTests {
        @Test func theProcessesHandlerFollowsTheConfiguredLevel() {
            let saved = HiveLogging.level
            defer { HiveLogging.level = saved }
            HiveLogging.level = .warning
            var logger = LogSetup.external.logger(label: "mydaemon")
            #expect(logger.handler is SharedLevelLogHandler)
            #expect(logger.logLevel == .warning)
            HiveLogging.level = .debug  // a reload
            #expect(logger.logLevel == .debug)
            logger.logLevel = .error
            HiveLogging.level = .trace
            #expect(logger.logLevel == .error)
            logger[metadataKey: "k"] = "v"
            #expect(logger[metadataKey: "k"] == "v")
        }
    }
}
