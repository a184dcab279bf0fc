import HiveKit
import Logging
import Synchronization
import TestSupport
import Testing

// The code of HiveKit.docc/StatefulModules.md, compiled and run: every block of the article
// is this file's text (DocumentationCodeTests checks that).

/// Beats at an interval from `init` until `terminate`, and says how often it has beaten.
actor Heartbeat: Module {
    private var beats = 0
    private var beating: Task<Void, Never>?

    func initialize(_ context: ModuleContext) async throws {
        let interval = try context.settings.duration("interval") ?? .seconds(10)
        let logger = context.logger
        beating = Task {
            while (try? await Task.sleep(for: interval)) != nil {
                beat(logger)
            }
        }
    }

    private func beat(_ logger: Logger) {
        beats += 1
        logger.debug("beat \(beats)")
    }

    func custom(_ context: ModuleContext) async throws {
        guard context.customEventName == "stats" else { return }
        context.logger.info("\(beats) beats so far")
    }

    func terminate(_ context: ModuleContext) async throws {
        beating?.cancel()
        await beating?.value
        beating = nil
        context.logger.info("stopped after \(beats) beats")
    }
}

func heartbeatCatalog() -> ModuleCatalog {
    var catalog = ModuleCatalog()
    catalog.register("heartbeat", settings: ["interval"]) { descriptor in
        _ = try descriptor.settings.duration("interval")     // a bad value fails the file, at its line
        return Heartbeat()                                   // nothing starts before init
    }
    return catalog
}

/// Counts the custom events it receives, by name: a final class whose state a `Mutex`
/// guards.
final class EventCounter: Module {
    private let counts = Mutex<[String: Int]>([:])

    func custom(_ context: ModuleContext) async throws {
        let name = context.customEventName ?? "?"
        let count = counts.withLock { counts in
            counts[name, default: 0] += 1
            return counts[name, default: 0]
        }
        context.logger.info("\(name) number \(count)")
    }
}

/// Where the module keeps its cache: in the state directory, else in the current directory.
func cachePath(_ context: ModuleContext) -> String {
    guard let directory = context.stateDirectory else { return "cache.db" }
    return directory + "/cache.db"
}

/// Records what `cachePath(_:)` and the context's runtime directory say at `setup`.
private final class DirectoryRecorder: Module {
    let seen = Mutex<[String?]>([])

    func setup(_ context: ModuleContext) async throws {
        seen.withLock { $0 = [cachePath(context), context.runtimeDirectory] }
    }
}

@Suite struct StatefulModulesArticleTests {
    static func lines(_ logs: LogStore) -> [String] {
        logs.all.compactMap { record in record.metadata["module"].map { _ in record.message } }
    }

    /// The actor keeps its count between hooks, its task beats between events, and
    /// `terminate` ends the task: no beat comes after the module said it stopped.
    @Test func anActorKeepsItsStateAndItsTaskEndsAtTerminate() async throws {
        let logs = LogStore()
        let spec = ModuleDescriptor(name: "heartbeat", type: "heartbeat", settings: Settings(["interval": .string("10ms")]))
        let hive = try makeHive(heartbeatCatalog().instantiate([spec]), logs: logs)
        try await hive.start()
        #expect(await eventually(wakingOn: logs) { Self.lines(logs).contains("beat 3") })
        try await hive.send(.custom(name: "stats"))
        let said = try #require(Self.lines(logs).first { $0.hasSuffix(" beats so far") })
        #expect((Int(said.prefix { $0.isNumber }) ?? 0) >= 3, "\(said)")
        await hive.stop()
        let stopped = try #require(Self.lines(logs).firstIndex { $0.hasPrefix("stopped after ") })
        try await Task.sleep(for: .milliseconds(50))
        #expect(!Self.lines(logs)[stopped...].contains { $0.hasPrefix("beat ") }, "\(Self.lines(logs))")
        #expect(Self.lines(logs)[stopped] == "stopped after \(Self.lines(logs).filter { $0.hasPrefix("beat ") }.count) beats")
    }

    /// Loading a file builds every module once and drops it: the factory checks the
    /// settings and starts nothing.
    @Test func theFactoryChecksTheSettingsAndStartsNothing() throws {
        let bad = ModuleDescriptor(
            name: "heartbeat", type: "heartbeat", settings: Settings(["interval": .string("soon")], owner: "heartbeat"))
        #expect(throws: HiveError.self) { try heartbeatCatalog().instantiate([bad]) }
        let misspelt = ModuleDescriptor(
            name: "heartbeat", type: "heartbeat", settings: Settings(["intervall": .string("1s")], owner: "heartbeat"))
        let error = try #require(throws: HiveError.self) { try heartbeatCatalog().instantiate([misspelt]) }
        #expect("\(error)".contains("unknown setting 'intervall'; expected interval"), "\(error)")
    }

    @Test func aClassKeepsItsStateBehindAMutex() async throws {
        let logs = LogStore()
        let hive = try makeHive([(EventCounter(), ModuleDescriptor(name: "counter"))], logs: logs)
        try await hive.start()
        try await hive.send(.custom(name: "rotate"))
        try await hive.send(.custom(name: "rotate"))
        try await hive.send(.custom(name: "stats"))
        await hive.stop()
        #expect(Self.lines(logs) == ["rotate number 1", "rotate number 2", "stats number 1"])
    }

    /// The context reports the directories the hive's configuration names, and nil (the
    /// module's fallback) when it names none.
    @Test func theContextReportsTheHivesDirectories() async throws {
        let given = DirectoryRecorder()
        let hive = try Hive(
            HiveConfiguration(stateDirectory: "/var/lib/mydaemon", runtimeDirectory: "/run/mydaemon"),
            modules: [(given, ModuleDescriptor(name: "cache"))])
        try await hive.start()
        await hive.stop()
        #expect(given.seen.withLock { $0 } == ["/var/lib/mydaemon/cache.db", "/run/mydaemon"])

        let none = DirectoryRecorder()
        let bare = try makeHive([(none, ModuleDescriptor(name: "cache"))])
        try await bare.start()
        await bare.stop()
        #expect(none.seen.withLock { $0 } == ["cache.db", nil])
    }
}
