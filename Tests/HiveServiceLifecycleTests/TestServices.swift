import HiveKit
import HiveServiceLifecycle
import ServiceLifecycle
import Synchronization

/// What the test services and the host saw, in order.
final class Record: Sendable {
    private let lines = Mutex<[String]>([])

    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }

    /// Waits until `line` was added; false after `timeout`.
    func waitFor(_ line: String, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !all.contains(line) {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}

/// Runs until its graceful shutdown, recording both.
struct PoliteService: Service {
    let record: Record
    var readiness: ServiceReadiness?

    func run() async throws {
        record.add("running")
        readiness?.markRunning()
        try? await gracefulShutdown()
        record.add("graceful shutdown")
    }
}

/// Records `started`, then marks its readiness only once ``open()`` is called, as a server
/// does once it listens; runs until its graceful shutdown.
final class GatedService: Service, Sendable {
    let record: Record
    let readiness: ServiceReadiness
    private let opened = Mutex(false)

    init(record: Record, readiness: ServiceReadiness) {
        self.record = record
        self.readiness = readiness
    }

    /// Lets the service mark itself running.
    func open() { opened.withLock { $0 = true } }

    func run() async throws {
        record.add("started")
        while !opened.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        record.add("running")
        readiness.markRunning()
        try? await gracefulShutdown()
        record.add("graceful shutdown")
    }
}

/// Ignores graceful shutdown; ends only when cancelled.
struct StubbornService: Service {
    let record: Record

    func run() async throws {
        record.add("running")
        do {
            try await Task.sleep(for: .seconds(600))
        } catch {
            record.add("cancelled")
            throw error
        }
    }
}

/// Returns, or throws, at once.
struct ShortService: Service {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "port in use" }
    }

    let throwing: Bool

    func run() async throws {
        if throwing { throw Failure() }
    }
}

/// Stands in for a daemon: records stop requests.
struct RecordingHost: HiveHost {
    let record: Record

    func requestStop(module: String, reason: String, failure: Bool) {
        record.add("stop requested by \(module) (\(failure ? "failure" : "clean")): \(reason)")
    }
}

/// Records its own teardown, to show where it falls among the others.
struct MarkerModule: Module {
    let record: Record
    func teardown(_ context: ModuleContext) async throws { record.add("teardown \(context.moduleName)") }
}
