import BenchSupport
import Logging
import ServiceLifecycle
import Synchronization

/// swift-service-lifecycle's `ServiceGroup` of N services whose `run()` waits for the
/// graceful shutdown: `run()` until every service's `run()` was entered to start;
/// `triggerGracefulShutdown()` (services shut down one by one, in reverse order) until
/// `run()` returned to stop.
struct ServiceGroupCandidate: Candidate {
    var label: String { "ServiceGroup" }

    /// Counts services that entered `run()` and resumes the benchmark when all have.
    private final class StartLatch: Sendable {
        private struct State {
            var remaining: Int
            var waiter: CheckedContinuation<Void, Never>?
        }
        private let state: Mutex<State>

        init(count: Int) { state = Mutex(State(remaining: count)) }

        func arrive() {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.remaining -= 1
                guard state.remaining == 0 else { return nil }
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }

        func wait() async {
            await withCheckedContinuation { continuation in
                let done = state.withLock { state in
                    if state.remaining == 0 { return true }
                    state.waiter = continuation
                    return false
                }
                if done { continuation.resume() }
            }
        }
    }

    /// A service that does nothing until the group shuts down gracefully.
    private struct NoOp: Service {
        let latch: StartLatch
        func run() async throws {
            latch.arrive()
            try await gracefulShutdown()
        }
    }

    func cycle(units: Int, stopping: Bool) async throws -> Cycle {
        let heap0 = heapInUse()
        let resident0 = residentBytes()
        let latch = StartLatch(count: units)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = (0..<units).map { _ in
            .init(service: NoOp(latch: latch))
        }
        let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        let begin = Monotonic.now()
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger))
        let running = Task { try await group.run() }
        await latch.wait()
        let started = Monotonic.now()
        services = []
        let heap = Double(heapInUse() - heap0)
        let resident = Double(residentBytes() - resident0)
        let start = Double(started &- begin)
        guard stopping else { return Cycle(start: start, stop: 0, heap: heap, resident: resident) }
        await group.triggerGracefulShutdown()
        try await running.value
        let stopped = Monotonic.now()
        return Cycle(start: start, stop: Double(stopped &- started), heap: heap, resident: resident)
    }
}
