import HiveKit
import Logging
import ServiceLifecycle
import Synchronization

/// Runs one service in a ServiceGroup of its own, the public way to give it a graceful
/// shutdown, and tells waiters when it is running or has ended.
final class ServiceRunner: Sendable {
    /// How `run()` ended.
    enum Outcome: Sendable {
        case returned
        case threw(any Error)
    }

    private struct State {
        var group: ServiceGroup?
        var task: Task<Void, Never>?
        var isClaimed = false
        var isRunning = false
        var waitsUntilRunning = false
        var isTerminating = false
        var outcome: Outcome?
        var endedEarly = false
        var settings: Settings?
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Whether `run()` was started.
    var hasStarted: Bool { state.withLock { $0.task != nil } }
    /// How `run()` ended, once it has.
    var outcome: Outcome? { state.withLock { $0.outcome } }
    /// Whether `run()` ended before ``terminate()``.
    var endedEarly: Bool { state.withLock { $0.endedEarly } }
    /// The module's settings when the service was made.
    var settings: Settings? {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    /// Claims the runner for the module about to start it: false when another module, given
    /// the same ``ServiceReadiness``, has claimed it.
    func claim() -> Bool {
        state.withLock { state in
            defer { state.isClaimed = true }
            return !state.isClaimed
        }
    }

    /// Starts `service.run()` in a group of its own (no signals: the host owns them) on a
    /// detached task, so it inherits nothing of the hook that starts it. `onEarlyEnd` runs
    /// when `run()` ends before ``terminate()`` (and, if the start waits until the service
    /// runs, after ``markRunning()``: before it, the start itself fails).
    func start(
        _ service: any Service, name: String, logger: Logger, waitsUntilRunning: Bool,
        onEarlyEnd: @escaping @Sendable (Outcome) -> Void
    ) {
        let configuration = ServiceGroupConfiguration(
            services: [
                .init(
                    service: service, successTerminationBehavior: .gracefullyShutdownGroup,
                    failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: name),
            ],
            logger: logger)
        let group = ServiceGroup(configuration: configuration)
        state.withLock { state in
            state.group = group
            state.waitsUntilRunning = waitsUntilRunning
            state.task = Task.detached { [self] in
                let outcome: Outcome
                do {
                    try await group.run()
                    outcome = .returned
                } catch {
                    outcome = .threw(error)
                }
                if finish(outcome) { onEarlyEnd(outcome) }
            }
        }
    }

    /// Records the outcome and wakes every waiter; whether it is an early end to report.
    private func finish(_ outcome: Outcome) -> Bool {
        let (waiters, early) = state.withLock { state in
            state.outcome = outcome
            state.endedEarly = !state.isTerminating && (state.isRunning || !state.waitsUntilRunning)
            defer { state.waiters = [:] }
            return (Array(state.waiters.values), state.endedEarly)
        }
        waiters.forEach { $0.resume() }
        return early
    }

    /// See ``ServiceReadiness/markRunning()``.
    func markRunning() {
        let waiters = state.withLock { state in
            state.isRunning = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Triggers the service's graceful shutdown (once); returns at once.
    func terminate() async {
        let group = state.withLock { state -> ServiceGroup? in
            defer { state.isTerminating = true }
            return state.isTerminating || state.outcome != nil ? nil : state.group
        }
        await group?.triggerGracefulShutdown()
    }

    /// Cancels the task that runs the service: the group cancels the service.
    func cancel() {
        state.withLock { $0.task }?.cancel()
    }

    /// Waits until the service is running or has ended; whether it is running.
    func waitUntilRunning() async -> Bool {
        await wait(until: nil) { $0.isRunning || $0.outcome != nil }
        return outcome == nil
    }

    /// Waits until `run()` has ended, at most `timeout`; whether it has.
    func waitForEnd(timeout: Duration) async -> Bool {
        await wait(until: .now + timeout) { $0.outcome != nil }
        return outcome != nil
    }

    /// Waits until `condition` holds or `deadline` passes (`nil`: no limit). Every change
    /// of state wakes the waiters, which check again.
    private func wait(until deadline: ContinuousClock.Instant?, _ condition: (State) -> Bool) async {
        while !state.withLock({ condition($0) }) {
            if let deadline, ContinuousClock.now >= deadline { return }
            let id = state.withLock { state in
                defer { state.nextWaiter += 1 }
                return state.nextWaiter
            }
            let timer = deadline.map { deadline in
                Task { [self] in
                    try? await Task.sleep(until: deadline)
                    wake(id)
                }
            }
            await withCheckedContinuation { continuation in
                let satisfied = state.withLock { state in
                    if condition(state) { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if satisfied { continuation.resume() }
            }
            timer?.cancel()
        }
    }

    private func wake(_ id: Int) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
}
