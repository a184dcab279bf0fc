import Dispatch
import Synchronization

/// One Dispatch timer for every deadline in the process — hook budgets, stall checks, the
/// daemon's own watches: runs each registered action once its deadline has passed, on a
/// Dispatch queue, never on the cooperative pool (which a stalled hook may be holding).
///
/// Pending actions sit in a heap (``DeadlineHeap``): registering and cancelling cost
/// O(log n) under a short lock, and the source is re-armed only for a deadline earlier
/// than the one it waits for.
package final class DeadlineTimer: Sendable {
    /// The process's timer.
    package static let shared = DeadlineTimer()

    private struct State {
        var pending = DeadlineHeap<@Sendable () -> Void>()
        var nextID: UInt64 = 1
        /// The deadline (`DispatchTime` nanoseconds) the source is armed for, if any.
        var armedFor: UInt64?
    }

    private let state = Mutex(State())
    /// `nonisolated(unsafe)`: a Dispatch source is thread-safe, and this one is only
    /// scheduled under `state`'s lock.
    nonisolated(unsafe) private let source: any DispatchSourceTimer

    private init() {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "HiveKit.DeadlineTimer"))
        source.setEventHandler { [unowned self] in fire() }
        source.schedule(deadline: .distantFuture)
        source.activate()
    }

    /// Runs `action` once `duration` has passed, unless ``cancel(_:)`` comes first.
    ///
    /// The action runs on the timer's queue, after every earlier deadline's: keep it short
    /// and never block in it.
    /// - Returns: the id that cancels it.
    package func run(after duration: Duration, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = DispatchTime.now().uptimeNanoseconds &+ duration.nanosecondsClamped
        return state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.pending.insert(id: id, deadline: deadline, action)
            if state.armedFor.map({ deadline < $0 }) ?? true {
                state.armedFor = deadline
                source.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .nanoseconds(0))
            }
            return id
        }
    }

    /// Forgets the action registered under `id`, if it has not run.
    package func cancel(_ id: UInt64) {
        state.withLock { state in _ = state.pending.remove(id: id) }
    }

    /// Runs the actions whose deadline has passed and re-arms for the next one.
    private func fire() {
        let due = state.withLock { state -> [@Sendable () -> Void] in
            let now = DispatchTime.now().uptimeNanoseconds
            var due: [@Sendable () -> Void] = []
            while let first = state.pending.first, first.deadline <= now {
                due.append(state.pending.popFirst()!.payload)
            }
            state.armedFor = state.pending.first?.deadline
            source.schedule(
                deadline: state.armedFor.map { DispatchTime(uptimeNanoseconds: $0) } ?? .distantFuture,
                leeway: .nanoseconds(0))
            return due
        }
        for action in due { action() }
    }
}
