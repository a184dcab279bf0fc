/// The requests waiting for the daemon's event loop: bounded, coalescing, first in first
/// out. Part of the ``DaemonLifecycle``, which decides what enters it and empties it at a
/// stop.
///
/// Requests coalesce as ``DaemonRequest/coalescing`` says (a storm of `SIGHUP`s is one
/// reload running plus one waiting, which still reads the latest file and answers every
/// control `Reload` that joined it; 20,000 `SIGUSR1`s are one event running plus one
/// waiting). At most ``capacity`` requests wait; more are refused and counted, never fatal.
struct RequestQueue {
    /// The most requests that wait at once.
    static let capacity = 1024

    /// What ``add(_:)`` did with a request.
    enum Added: Equatable {
        /// Queued at the end.
        case queued
        /// Merged into, joined, or took the place of, one already waiting.
        case coalesced
        /// Refused: ``capacity`` requests already wait.
        case overflowed
    }

    private var queue = FIFO<DaemonRequest>()
    /// How many requests merged into, or replaced, one already waiting so far.
    private(set) var coalescedCount = 0
    /// How many requests were refused so far because ``capacity`` requests waited.
    private(set) var overflowCount = 0

    /// Whether nothing waits.
    var isEmpty: Bool { queue.isEmpty }

    /// Queues `request`, or coalesces it with one waiting.
    mutating func add(_ request: DaemonRequest) -> Added {
        switch request.coalescing {
        case .never:
            break
        case .mergesWith(let key):
            if queue.waiting.contains(where: { $0.coalescing == .mergesWith(key) }) {
                coalescedCount += 1
                return .coalesced
            }
        case .joins(let key):
            if let index = queue.waiting.firstIndex(where: { $0.coalescing == .joins(key) }) {
                queue.replace(at: index, with: queue.waiting[index].joined(with: request))
                coalescedCount += 1
                return .coalesced
            }
        case .replaces(let key):
            if let index = queue.waiting.firstIndex(where: { $0.coalescing == .replaces(key) }) {
                queue.replace(at: index, with: request)
                coalescedCount += 1
                return .coalesced
            }
        }
        guard queue.count < Self.capacity else {
            overflowCount += 1
            return .overflowed
        }
        queue.append(request)
        return .queued
    }

    /// Takes the oldest request.
    mutating func take() -> DaemonRequest? {
        queue.popFirst()
    }

    /// Empties the queue; returns what waited, oldest first.
    mutating func removeAll() -> [DaemonRequest] {
        queue.removeAll()
    }
}
