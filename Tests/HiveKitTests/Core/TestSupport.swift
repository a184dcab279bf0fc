import Foundation
import HiveKit
import Logging
import Synchronization

/// A thread-safe, append-only log of what modules saw, shared by the modules of a test.
final class Recorder: Sendable {
    private let items = Mutex<[String]>([])
    private let inFlight = Mutex<(now: Int, max: Int)>((0, 0))
    /// Per event: how many hooks of that event run now, and the most ever seen.
    private let inFlightByEvent = Mutex<[String: (now: Int, max: Int)]>([:])

    func append(_ item: String) { items.withLock { $0.append(item) } }
    var all: [String] { items.withLock { $0 } }

    /// The entries that end with `.event`, without that suffix: `["a", "b"]` for `a.init`, `b.init`.
    func modules(for event: String) -> [String] {
        all.compactMap { item in
            item.hasSuffix(".\(event)") ? String(item.dropLast(event.count + 1)) : nil
        }
    }

    /// Tracks how many hooks run at once, in all and per event; `maxInFlight` is the most
    /// ever seen.
    func enter(_ event: String = "") {
        inFlight.withLock { $0.now += 1; $0.max = Swift.max($0.max, $0.now) }
        inFlightByEvent.withLock { counts in
            var count = counts[event] ?? (0, 0)
            count.now += 1
            count.max = Swift.max(count.max, count.now)
            counts[event] = count
        }
    }
    func leave(_ event: String = "") {
        inFlight.withLock { $0.now -= 1 }
        inFlightByEvent.withLock { $0[event]?.now -= 1 }
    }
    var maxInFlight: Int { inFlight.withLock { $0.max } }
    /// The most hooks of `event` ever seen running at once.
    func maxInFlight(during event: String) -> Int { inFlightByEvent.withLock { $0[event]?.max ?? 0 } }
}

/// What a ``ScriptedModule`` does on an event besides recording it.
enum Behavior: Sendable {
    case fail(String)
    case sleep(Duration)
    /// Waits without ever looking at cancellation (a truly stuck handler).
    case hang(Duration)
    case run(@Sendable (ModuleContext) async throws -> Void)
}

struct TestFailure: Error, CustomStringConvertible {
    let text: String
    init(_ text: String) { self.text = text }
    var description: String { text }
}

/// A module that records `name.event` for every hook and behaves as scripted.
struct ScriptedModule: Module {
    let recorder: Recorder
    var behaviors: [EventKind: Behavior] = [:]
    /// Count concurrent hooks (for the "sync modules never overlap" test).
    var tracksOverlap = false

    init(_ recorder: Recorder, _ behaviors: [EventKind: Behavior] = [:], tracksOverlap: Bool = false) {
        self.recorder = recorder
        self.behaviors = behaviors
        self.tracksOverlap = tracksOverlap
    }

    private func hook(_ context: ModuleContext) async throws {
        recorder.append("\(context.moduleName).\(context.event.kind)")
        if tracksOverlap { recorder.enter("\(context.event.kind)") }
        defer { if tracksOverlap { recorder.leave("\(context.event.kind)") } }
        switch behaviors[context.event.kind] {
        case nil: if tracksOverlap { await Task.yield(); try? await Task.sleep(for: .milliseconds(2)) }
        case .fail(let text)?: throw TestFailure(text)
        case .sleep(let duration)?: try await Task.sleep(for: duration)
        case .hang(let duration)?: await waitIgnoringCancellation(for: duration)
        case .run(let body)?: try await body(context)
        }
    }

    func setup(_ context: ModuleContext) async throws { try await hook(context) }
    func initialize(_ context: ModuleContext) async throws { try await hook(context) }
    func ready(_ context: ModuleContext) async throws { try await hook(context) }
    func background(_ context: ModuleContext) async throws { try await hook(context) }
    func foreground(_ context: ModuleContext) async throws { try await hook(context) }
    func reload(_ context: ModuleContext) async throws { try await hook(context) }
    func memoryWarning(_ context: ModuleContext) async throws { try await hook(context) }
    func custom(_ context: ModuleContext) async throws { try await hook(context) }
    func terminate(_ context: ModuleContext) async throws { try await hook(context) }
    func teardown(_ context: ModuleContext) async throws { try await hook(context) }
    func unmount(_ context: ModuleContext) async throws { try await hook(context) }
}

/// Waits for `duration`, ignoring cancellation: a hook that is truly stuck. It does not
/// block its thread, which the other tests running at the same time need.
func waitIgnoringCancellation(for duration: Duration) async {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().asyncAfter(deadline: .now() + duration.seconds) { continuation.resume() }
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// One log record a ``CollectingLogHandler`` kept.
struct LogRecord: Sendable {
    let level: Logger.Level
    let message: String
    let metadata: [String: String]
    /// When it was logged.
    var at: ContinuousClock.Instant = .now
}

/// Collects log records in memory so tests can assert what was logged.
final class LogStore: Sendable {
    private let records = Mutex<[LogRecord]>([])
    func append(_ record: LogRecord) { records.withLock { $0.append(record) } }
    var all: [LogRecord] { records.withLock { $0 } }

    /// A logger labelled `hived` that writes here.
    var logger: Logger {
        Logger(label: "hived") { _ in CollectingLogHandler(store: self) }
    }
}

struct CollectingLogHandler: LogHandler {
    let store: LogStore
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        store.append(LogRecord(
            level: event.level, message: event.message.description,
            metadata: merged.mapValues { $0.description }))
    }
}

/// Polls `condition` every few milliseconds until it holds or `timeout` passes.
func eventually(
    timeout: Duration = .seconds(10), _ condition: @Sendable () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// A one-shot signal a hook can wait on, with a timeout so a broken test fails instead of hanging.
final class Latch: Sendable {
    private let opened = Atomic<Bool>(false)
    func open() { opened.store(true, ordering: .releasing) }
    var isOpen: Bool { opened.load(ordering: .acquiring) }

    /// Waits until opened; `false` if `timeout` passed first.
    func wait(timeout: Duration = .seconds(10)) async -> Bool {
        await eventually(timeout: timeout) { self.isOpen }
    }
}

/// A hive for a test. Its default budget (30 s) only bounds hooks whose budget is not
/// what the test is about: the test process's cooperative pool is shared by every test
/// running beside it, and CPU-bound ones (ArgumentParser's first parse in a debug build,
/// building hostile configurations) can keep even a no-op hook waiting seconds for a
/// thread on a loaded 2-core machine (a soak with two CPU hogs saw more than 5 s). Tests
/// of budgets name their own.
func makeHive(
    _ modules: [(module: any Module, descriptor: ModuleDescriptor)],
    budget: Duration = .seconds(30),
    logs: LogStore = LogStore(),
    environment: HiveEnvironment = .testing
) throws -> Hive {
    try Hive(
        HiveConfiguration(environment: environment, defaultBudget: budget, logger: logs.logger),
        modules: modules)
}
