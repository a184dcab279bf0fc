import HiveKit
import HiveServiceLifecycle
import ServiceLifecycle
import TestSupport

/// Runs until its graceful shutdown, recording both.
struct PoliteService: Service {
    let record: Journal
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
    let record: Journal
    let readiness: ServiceReadiness
    private let opened = Latch()

    init(record: Journal, readiness: ServiceReadiness) {
        self.record = record
        self.readiness = readiness
    }

    /// Lets the service mark itself running.
    func open() { opened.open() }

    func run() async throws {
        record.add("started")
        guard await opened.wait() else { throw TestFailure("GatedService was never opened") }
        record.add("running")
        readiness.markRunning()
        try? await gracefulShutdown()
        record.add("graceful shutdown")
    }
}

/// Ignores graceful shutdown; ends only when cancelled.
struct StubbornService: Service {
    let record: Journal

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
    let record: Journal

    func requestStop(module: String, reason: String, failure: Bool) {
        record.add("stop requested by \(module) (\(failure ? "failure" : "clean")): \(reason)")
    }
}

/// Records its own teardown, to show where it falls among the others.
struct MarkerModule: Module {
    let record: Journal
    func teardown(_ context: ModuleContext) async throws { record.add("teardown \(context.moduleName)") }
}
