import Synchronization

/// A first-in, first-out async lock: events, registrations and reloads take it so
/// they run one at a time, in arrival order, never interleaved.
final class EventGate: Sendable {
    private struct State {
        var isHeld = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Waits until every earlier holder released the gate, then holds it.
    func acquire() async {
        let acquired = state.withLock { state in
            if state.isHeld { return false }
            state.isHeld = true
            return true
        }
        if acquired { return }
        await withCheckedContinuation { continuation in
            let acquiredNow = state.withLock { state in
                if state.isHeld {
                    state.waiters.append(continuation)
                    return false
                }
                state.isHeld = true
                return true
            }
            if acquiredNow { continuation.resume() }
        }
    }

    /// Hands the gate to the longest waiter, or frees it.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.isHeld = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` while holding the gate.
    func withGate<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    /// How many callers wait behind the current holder.
    var waiting: Int { state.withLock { $0.waiters.count } }
}
