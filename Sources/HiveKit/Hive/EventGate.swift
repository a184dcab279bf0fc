import Synchronization

/// A first-in, first-out async lock: events, registrations and reloads take it so
/// they run one at a time, in arrival order, never interleaved.
///
/// A waiter whose task is cancelled leaves the queue at once and never gets the gate.
/// Acquiring, releasing and cancelling cost O(1) (amortised).
final class EventGate: Sendable {
    /// One caller waiting for the gate. Its fields are only touched under the gate's lock
    /// (`state`), which is what makes the `@unchecked Sendable` safe.
    private final class Waiter: @unchecked Sendable {
        var continuation: CheckedContinuation<Bool, Never>?
        var isCancelled = false
    }

    private struct State {
        var isHeld = false
        /// Waiters in arrival order from `head`; cancelled ones stay until they reach it.
        var queue: [Waiter] = []
        var head = 0
        /// Waiters in `queue` not cancelled.
        var waiting = 0

        /// The longest waiter not cancelled, removed from the queue.
        mutating func popLive() -> Waiter? {
            while head < queue.count {
                let waiter = queue[head]
                head += 1
                if head == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    head = 0
                } else if head >= 32 && head * 2 >= queue.count {
                    // Each compaction moves fewer waiters than were popped since the last.
                    queue.removeFirst(head)
                    head = 0
                }
                if !waiter.isCancelled { return waiter }
            }
            return nil
        }
    }

    private let state = Mutex(State())

    /// Waits until every earlier holder released the gate, then holds it.
    ///
    /// - Throws: `CancellationError` if the calling task is cancelled before it gets the
    ///   gate (then it does not hold it).
    func acquire() async throws(CancellationError) {
        if Task.isCancelled { throw CancellationError() }
        let acquired = state.withLock { state in
            if state.isHeld { return false }
            state.isHeld = true
            return true
        }
        if acquired { return }
        let waiter = Waiter()
        let granted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now: Bool? = state.withLock { state in
                    if waiter.isCancelled { return false }
                    if !state.isHeld {
                        state.isHeld = true
                        return true
                    }
                    waiter.continuation = continuation
                    state.queue.append(waiter)
                    state.waiting += 1
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                waiter.isCancelled = true
                guard let continuation = waiter.continuation else { return nil }
                waiter.continuation = nil
                state.waiting -= 1
                return continuation
            }
            continuation?.resume(returning: false)
        }
        guard granted else { throw CancellationError() }
        // Cancelled just as the gate was handed over: pass it on rather than run.
        if Task.isCancelled {
            release()
            throw CancellationError()
        }
    }

    /// Hands the gate to the longest waiter, or frees it.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let waiter = state.popLive() else {
                state.isHeld = false
                return nil
            }
            state.waiting -= 1
            defer { waiter.continuation = nil }
            return waiter.continuation
        }
        next?.resume(returning: true)
    }

    /// How many callers wait behind the current holder.
    var waiting: Int { state.withLock { $0.waiting } }
}
