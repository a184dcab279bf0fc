import HiveKit
import Synchronization

/// The queue between the signal reader thread and the daemon's event loop.
///
/// Requests come out one at a time, in arrival order. A reload that arrives while
/// another reload is still waiting merges into it (a storm of `SIGHUP`s becomes at most
/// one reload running plus one waiting, which still reads the latest file), and memory
/// pressure that arrives while another warning waits replaces it (the newer reading
/// wins); a stop request ends the queue: nothing posted after it is delivered.
final class DaemonInbox: Sendable {
    private struct State {
        var queue: [DaemonRequest] = []
        var head = 0
        var waiter: CheckedContinuation<DaemonRequest, Never>?
        var isClosed = false
        var merged = 0
    }

    private let state = Mutex(State())

    /// Queues a request; never blocks, safe from any thread. Returns false when the
    /// queue is closed (a stop was posted) and the request will never be handled.
    @discardableResult
    func post(_ request: DaemonRequest) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<DaemonRequest, Never>?) in
            guard !state.isClosed else { return (false, nil) }
            if case .stop = request { state.isClosed = true }
            if request == .reload, state.queue.count > state.head, state.queue.last == .reload {
                state.merged += 1
                return (true, nil)
            }
            if case .memoryPressure = request, state.queue.count > state.head,
                case .memoryPressure = state.queue[state.queue.count - 1]
            {
                state.queue[state.queue.count - 1] = request
                return (true, nil)
            }
            if let waiter = state.waiter {
                state.waiter = nil
                return (true, waiter)
            }
            state.queue.append(request)
            return (true, nil)
        }
        waiter?.resume(returning: request)
        return accepted
    }

    /// Waits for the next request.
    func next() async -> DaemonRequest {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> DaemonRequest? in
                guard state.head < state.queue.count else {
                    state.waiter = continuation
                    return nil
                }
                let request = state.queue[state.head]
                state.head += 1
                if state.head == state.queue.count {
                    state.queue.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                return request
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// How many reloads merged into a waiting one so far.
    var mergedReloads: Int { state.withLock { $0.merged } }
}
