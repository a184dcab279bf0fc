import Dispatch
import Synchronization

/// Wakes the tasks that wait for something in this process to change: a ``LogStore``'s
/// records, a ``Recorder``'s entries, a ``NotifySocket``'s datagrams. Their owner calls
/// ``signal()`` after each change; ``waitUntil(_:timeout:wakingOn:detail:_:)`` and
/// ``eventually(timeout:wakingOn:_:)`` look at their condition again only then, never on
/// a timer.
public final class ChangeSignal: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }
    private let state = Mutex(State())

    /// A signal no one has waited on yet.
    public init() {}

    /// How many changes were signalled so far: read it before looking at the state, then
    /// pass it to ``wait(after:until:)``, so that a change in between is not missed.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// Wakes every waiter: call it after each change.
    public func signal() {
        let waiters = state.withLock { state in
            state.generation &+= 1
            defer { state.waiters = [:] }
            return state.waiters
        }
        for waiter in waiters.values { waiter.resume() }
    }

    /// Returns once a change after `generation` was signalled, `deadline` passed, or the
    /// task was cancelled. Holds no thread while it waits.
    public func wait(after generation: UInt64, until deadline: ContinuousClock.Instant) async {
        let waiter = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waiting = state.withLock { state -> Bool in
                    guard state.generation == generation, !Task.isCancelled else { return false }
                    state.waiters[waiter] = continuation
                    return true
                }
                guard waiting else { return continuation.resume() }
                let remaining = (deadline - .now).seconds
                DispatchQueue.global().asyncAfter(deadline: .now() + max(remaining, 0)) { self.wake(waiter) }
            }
        } onCancel: {
            wake(waiter)
        }
    }

    /// Resumes `waiter` if it still waits.
    private func wake(_ waiter: Int) {
        state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume()
    }
}

/// Something in this process that says when it changes (a log store, a recorder, a
/// notify socket), so a wait on it wakes on the change.
public protocol SignalsChanges: Sendable {
    /// Signalled after every change.
    var changes: ChangeSignal { get }
}
