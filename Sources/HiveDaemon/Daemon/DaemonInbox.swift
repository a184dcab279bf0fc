import HiveKit
import Synchronization

/// The queue between the daemon's sources of requests (the signal reader thread, …) and
/// its event loop: bounded, coalescing, and preempted by a stop.
///
/// Requests come out one at a time, in arrival order, except that they coalesce as
/// ``DaemonRequest/coalescing`` says (a storm of `SIGHUP`s is one reload running plus one
/// waiting, which still reads the latest file and answers every control `Reload` that
/// joined it; 20,000 `SIGUSR1`s are one event running plus one waiting). At most ``capacity`` requests wait; more are dropped and counted,
/// never fatal. A stop goes before everything still waiting, which is dropped (and
/// returned to the poster, to log or answer); nothing posted after a stop is taken.
final class DaemonInbox: Sendable {
    /// The most requests that wait at once.
    static let capacity = 1024

    /// What ``post(_:)`` did with a request.
    enum Posted: Equatable {
        /// Queued, or handed to the waiting event loop.
        case queued
        /// Merged into, joined, or took the place of, one already waiting.
        case coalesced
        /// Dropped: ``capacity`` requests already wait.
        case overflowed
        /// Dropped: a stop was posted before.
        case closed
        /// A stop, queued ahead of everything; these requests, which had not started,
        /// were dropped.
        case stopping(dropped: [DaemonRequest])

        /// Whether the request will be handled (or was merged into one that will).
        var isAccepted: Bool {
            switch self {
            case .queued, .coalesced, .stopping: true
            case .overflowed, .closed: false
            }
        }
    }

    private struct State {
        var queue: [DaemonRequest] = []
        var head = 0
        var waiter: CheckedContinuation<DaemonRequest, Never>?
        var isClosed = false
        var coalesced = 0
        var overflowed = 0

        var waiting: ArraySlice<DaemonRequest> { queue[head...] }
    }

    private let state = Mutex(State())

    /// Queues a request; never blocks, safe from any thread.
    @discardableResult
    func post(_ request: DaemonRequest) -> Posted {
        let (handOver, posted) = state.withLock { state -> (Handover?, Posted) in
            guard !state.isClosed else { return (nil, .closed) }
            if case .stop = request {
                state.isClosed = true
                let dropped = Array(state.waiting)
                state.queue = [request]
                state.head = 0
                return (takeWaiter(&state), .stopping(dropped: dropped))
            }
            switch request.coalescing {
            case .never:
                break
            case .mergesWith(let key):
                if state.waiting.contains(where: { $0.coalescing == .mergesWith(key) }) {
                    state.coalesced += 1
                    return (nil, .coalesced)
                }
            case .joins(let key):
                if let index = state.waiting.firstIndex(where: { $0.coalescing == .joins(key) }) {
                    state.queue[index] = state.queue[index].joined(with: request)
                    state.coalesced += 1
                    return (nil, .coalesced)
                }
            case .replaces(let key):
                if let index = state.waiting.firstIndex(where: { $0.coalescing == .replaces(key) }) {
                    state.queue[index] = request
                    state.coalesced += 1
                    return (nil, .coalesced)
                }
            }
            guard state.waiting.count < Self.capacity else {
                state.overflowed += 1
                return (nil, .overflowed)
            }
            state.queue.append(request)
            return (takeWaiter(&state), .queued)
        }
        if let handOver { handOver.waiter.resume(returning: handOver.request) }
        return posted
    }

    private struct Handover {
        let waiter: CheckedContinuation<DaemonRequest, Never>
        let request: DaemonRequest
    }

    /// The waiting event loop, if it waits, with the request just queued for it.
    private func takeWaiter(_ state: inout State) -> Handover? {
        guard let waiter = state.waiter, let request = Self.take(&state) else { return nil }
        state.waiter = nil
        return Handover(waiter: waiter, request: request)
    }

    /// Waits for the next request. One caller at a time: the event loop.
    func next() async -> DaemonRequest {
        if let request = state.withLock({ Self.take(&$0) }) { return request }
        return await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> DaemonRequest? in
                guard let request = Self.take(&state) else {
                    state.waiter = continuation
                    return nil
                }
                return request
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private static func take(_ state: inout State) -> DaemonRequest? {
        guard state.head < state.queue.count else { return nil }
        let request = state.queue[state.head]
        state.head += 1
        if state.head == state.queue.count {
            state.queue.removeAll(keepingCapacity: state.queue.capacity <= 64)
            state.head = 0
        }
        return request
    }

    /// Whether a stop was posted: nothing is taken any more.
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// How many requests merged into, or replaced, one already waiting so far.
    var coalescedCount: Int { state.withLock { $0.coalesced } }

    /// How many requests were dropped so far because ``capacity`` requests waited.
    var overflowCount: Int { state.withLock { $0.overflowed } }
}
