import Synchronization

/// The one timer a hive keeps in the process's ``DeadlineTimer``: armed for the earliest
/// moment a running hook can pass its budget, so a stall is seen when it happens, with no
/// polling and nothing added to a hook call.
///
/// The hive arms it when a turn begins (for the turn's start plus the smallest budget);
/// when it fires, the hive checks the hooks in flight, reports those past their budget and
/// arms it again for the next deadline, or lets it rest once no turn is under way.
final class StallWatch: Sendable {
    private struct State {
        var timer: UInt64?
        var armedFor: UInt64 = 0
    }

    private let state = Mutex(State())
    /// The `CLOCK_MONOTONIC` deadline it is armed for; 0 while it rests. Read without the
    /// lock when a turn begins.
    private let armedFor = Atomic<UInt64>(0)

    /// Whether it waits for a deadline no later than `deadline`. Sequentially consistent,
    /// like the store of the turn in progress before it and ``rest()`` with the load after
    /// it: a turn that begins while a check ends sees the watch resting, or the check sees
    /// the turn.
    func isArmed(byOrBefore deadline: UInt64) -> Bool {
        let armed = armedFor.load(ordering: .sequentiallyConsistent)
        return armed != 0 && armed <= deadline
    }

    /// Runs `check` at `deadline` (`CLOCK_MONOTONIC` nanoseconds), unless it is armed for
    /// an earlier or equal deadline already.
    func arm(at deadline: UInt64, _ check: @escaping @Sendable () -> Void) {
        state.withLock { state in
            if state.armedFor != 0 && state.armedFor <= deadline { return }
            if let timer = state.timer { DeadlineTimer.shared.cancel(timer) }
            let now = MonotonicClock.nanoseconds()
            let wait = Duration.nanoseconds(Int64(clamping: deadline > now ? deadline - now : 0))
            state.timer = DeadlineTimer.shared.run(after: wait, check)
            state.armedFor = deadline
            armedFor.store(deadline, ordering: .sequentiallyConsistent)
        }
    }

    /// Forgets the deadline that just fired (at the start of a check).
    func rest() {
        state.withLock { state in
            state.timer = nil
            state.armedFor = 0
            armedFor.store(0, ordering: .sequentiallyConsistent)
        }
    }

    /// Cancels the timer for good (the hive stopped or failed).
    func cancel() {
        state.withLock { state in
            if let timer = state.timer { DeadlineTimer.shared.cancel(timer) }
            state.timer = nil
            state.armedFor = 0
            armedFor.store(0, ordering: .sequentiallyConsistent)
        }
    }
}
