import Dispatch
import Synchronization

/// One Dispatch timer for every deadline in the process — hook budgets, stall checks, a
/// configuration read past its budget, the daemon's watchdog pings, the stop's requests for
/// more time, metrics flushes, the sleep budget: runs each registered action once its
/// deadline has passed (and again every interval, for a repeating one), on a Dispatch
/// queue, never on the cooperative pool (which a stalled hook may be holding).
///
/// Pending actions sit in a heap (``DeadlineHeap``): registering and cancelling cost
/// O(log n) under a short lock, and the source is re-armed only for a deadline earlier
/// than the one it waits for.
package final class DeadlineTimer: Sendable {
    /// The process's timer.
    package static let shared = DeadlineTimer()

    /// A registered action, and how often it repeats (nanoseconds; 0 for once).
    private struct Entry {
        let action: @Sendable () -> Void
        let interval: UInt64
    }

    private struct State {
        var pending = DeadlineHeap<Entry>()
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
        register(Entry(action: action, interval: 0), after: duration)
    }

    /// Runs `action` every `interval`, the first time after `first` (by default one
    /// interval), until ``cancel(_:)``. A run that falls behind is not caught up: the next
    /// one is an interval after it ran.
    ///
    /// The action runs on the timer's queue: keep it short and never block in it (hand
    /// longer work to a task).
    /// - Returns: the id that cancels it.
    package func run(
        every interval: Duration, after first: Duration? = nil, _ action: @escaping @Sendable () -> Void
    ) -> UInt64 {
        register(Entry(action: action, interval: max(interval.nanosecondsClamped, 1)), after: first ?? interval)
    }

    private func register(_ entry: Entry, after duration: Duration) -> UInt64 {
        let deadline = DispatchTime.now().uptimeNanoseconds &+ duration.nanosecondsClamped
        return state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            insert(entry, id: id, deadline: deadline, into: &state)
            return id
        }
    }

    private func insert(_ entry: Entry, id: UInt64, deadline: UInt64, into state: inout State) {
        state.pending.insert(id: id, deadline: deadline, entry)
        if state.armedFor.map({ deadline < $0 }) ?? true {
            state.armedFor = deadline
            source.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .nanoseconds(0))
        }
    }

    /// Forgets the action registered under `id`, if it has not run (a repeating one: its
    /// later runs; a run under way finishes).
    package func cancel(_ id: UInt64) {
        state.withLock { state in _ = state.pending.remove(id: id) }
    }

    /// Runs the actions whose deadline has passed (registering a repeating one's next run
    /// first) and re-arms for the next one.
    private func fire() {
        let due = state.withLock { state -> [@Sendable () -> Void] in
            let now = DispatchTime.now().uptimeNanoseconds
            var due: [@Sendable () -> Void] = []
            var repeating: [(id: UInt64, entry: Entry)] = []
            while let first = state.pending.first, first.deadline <= now {
                let item = state.pending.popFirst()!
                due.append(item.payload.action)
                if item.payload.interval > 0 { repeating.append((item.id, item.payload)) }
            }
            for (id, entry) in repeating { state.pending.insert(id: id, deadline: now &+ entry.interval, entry) }
            state.armedFor = state.pending.first?.deadline
            source.schedule(
                deadline: state.armedFor.map { DispatchTime(uptimeNanoseconds: $0) } ?? .distantFuture,
                leeway: .nanoseconds(0))
            return due
        }
        for action in due { action() }
    }
}
