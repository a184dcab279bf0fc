import Dispatch
import Synchronization

/// Races an operation against its time budget without waiting for an operation that
/// overran: the hive's way to abandon a stalled `teardown` and move on.
///
/// The budget is timed by ``DeadlineTimer``, not by a task: a hook that blocks its thread
/// (every thread of the cooperative pool, at worst) cannot delay the verdict. When the
/// budget runs out the waiter is resumed first, and the hook cancelled afterwards on
/// another queue: a cancellation handler that blocks cannot wedge the timer.
package enum BudgetRace {
    package enum Outcome: Sendable {
        case returned
        case threw(any Error)
        case timedOut
    }

    private final class Race: Sendable {
        let isDecided = Atomic<Bool>(false)
        /// The ``DeadlineTimer`` id of the budget; 0 until registered.
        let timer = Atomic<UInt64>(0)

        /// True for the first caller only.
        func claim() -> Bool {
            !isDecided.exchange(true, ordering: .sequentiallyConsistent)
        }
    }

    /// Runs `operation` in a task of its own and returns its outcome, or `.timedOut` once
    /// `budget` has passed; the overrunning task is then cancelled (asynchronously) and
    /// left behind.
    package static func run(
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
                    let timer = race.timer.load(ordering: .sequentiallyConsistent)
                    if timer != 0 { DeadlineTimer.shared.cancel(timer) }
                    continuation.resume(returning: outcome)
                }
            }
            let timer = DeadlineTimer.shared.run(after: budget) {
                guard race.claim() else { return }
                continuation.resume(returning: .timedOut)
                // Cancellation handlers are user code, run synchronously by `cancel()`: one
                // that blocks (on a lock the stuck hook holds, say) must not hold up the
                // timer every budget shares, so cancel from elsewhere, after resuming.
                DispatchQueue.global().async { work.cancel() }
            }
            // An operation that returned before this store found no timer to cancel: cancel
            // it here, or its action (holding the continuation and the task) would stay
            // registered for the whole budget, and a burst of calls would pile up.
            race.timer.store(timer, ordering: .sequentiallyConsistent)
            if race.isDecided.load(ordering: .sequentiallyConsistent) { DeadlineTimer.shared.cancel(timer) }
        }
    }
}
