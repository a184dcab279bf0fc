import Dispatch
import Synchronization

/// One Dispatch timer for every hook budget in the process: runs each registered action
/// once its deadline has passed, on a Dispatch queue, never on the cooperative pool (which
/// a stalled hook may be holding). Registering and cancelling take a short lock; the timer
/// is re-armed only for a deadline earlier than the one it waits for.
final class DeadlineTimer: Sendable {
    /// The process's timer.
    static let shared = DeadlineTimer()

    private struct Pending {
        let id: UInt64
        let deadline: DispatchTime
        let action: @Sendable () -> Void
    }

    private struct State {
        var pending: [Pending] = []
        var nextID: UInt64 = 1
        /// The deadline the source is armed for, if any.
        var armedFor: DispatchTime?
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
    /// - Returns: the id that cancels it.
    func run(after duration: Duration, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = DispatchTime.now() + .nanoseconds(Int(clamping: duration.nanosecondsClamped))
        return state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.pending.append(Pending(id: id, deadline: deadline, action: action))
            if state.armedFor.map({ deadline < $0 }) ?? true {
                state.armedFor = deadline
                source.schedule(deadline: deadline)
            }
            return id
        }
    }

    /// Forgets the action registered under `id`, if it has not run.
    func cancel(_ id: UInt64) {
        state.withLock { state in
            if let index = state.pending.lastIndex(where: { $0.id == id }) { state.pending.remove(at: index) }
        }
    }

    /// Runs the actions whose deadline has passed and re-arms for the next one.
    private func fire() {
        let due = state.withLock { state -> [Pending] in
            let now = DispatchTime.now()
            let due = state.pending.filter { $0.deadline <= now }
            state.pending.removeAll { $0.deadline <= now }
            state.armedFor = state.pending.map(\.deadline).min()
            source.schedule(deadline: state.armedFor ?? .distantFuture)
            return due
        }
        for pending in due { pending.action() }
    }
}
