import Dispatch
import Synchronization

/// A one-shot signal a hook can wait on, with a timeout so a broken test fails instead of
/// hanging. A waiter wakes when the latch opens, and holds no thread while it waits.
public final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    }
    private let state = Mutex(State())

    /// A closed latch.
    public init() {}

    /// Opens the latch and wakes every waiter; later waits return at once.
    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [:] }
            return state.waiters
        }
        for waiter in waiters.values { waiter.resume(returning: true) }
    }

    /// Whether ``open()`` was called.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Waits until opened; `false` if `timeout` passed first. Cancellation does not end
    /// the wait (a hook that waits here is one that ignores it).
    public func wait(timeout: Duration = .seconds(10)) async -> Bool {
        await withCheckedContinuation { continuation in
            let waiter = state.withLock { state -> Int? in
                guard !state.isOpen else { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let waiter else { return continuation.resume(returning: true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) {
                self.state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume(returning: false)
            }
        }
    }
}
