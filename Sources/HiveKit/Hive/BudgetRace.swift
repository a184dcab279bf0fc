import Synchronization

/// Races an operation against its time budget without waiting for an operation that
/// overran: the hive's way to abandon a stalled `teardown` and move on.
enum BudgetRace {
    enum Outcome: Sendable {
        case returned
        case threw(any Error)
        case timedOut
    }

    private final class Race: Sendable {
        let isDecided = Atomic<Bool>(false)
        let timer = Mutex<Task<Void, Never>?>(nil)

        /// True for the first caller only.
        func claim() -> Bool {
            !isDecided.exchange(true, ordering: .acquiringAndReleasing)
        }
    }

    /// Runs `operation` in a task of its own and returns its outcome, or `.timedOut` once
    /// `budget` has passed; the overrunning task is cancelled and left behind.
    static func run(
        within budget: Duration,
        _ operation: @escaping @Sendable () async throws -> Void
    ) async -> Outcome {
        let race = Race()
        return await withCheckedContinuation { continuation in
            let work = Task {
                let outcome: Outcome
                do {
                    try await operation()
                    outcome = .returned
                } catch {
                    outcome = .threw(error)
                }
                if race.claim() {
                    race.timer.withLock { $0?.cancel() }
                    continuation.resume(returning: outcome)
                }
            }
            let timer = Task {
                try? await Task.sleep(for: budget)
                if race.claim() {
                    work.cancel()
                    continuation.resume(returning: .timedOut)
                }
            }
            race.timer.withLock { $0 = timer }
            // The operation may have returned before the timer was stored, finding
            // nothing to cancel: cancel it now rather than let it sleep out the budget.
            if race.isDecided.load(ordering: .acquiring) { timer.cancel() }
        }
    }
}
