import Synchronization

/// A thread-safe, append-only log of what modules saw, shared by the modules of a test; a
/// wait on it (``eventually(timeout:wakingOn:_:)``) wakes on each entry.
public final class Recorder: SignalsChanges {
    private let items = Mutex<[String]>([])
    /// Signalled after each entry.
    public let changes = ChangeSignal()
    private let inFlight = Mutex<(now: Int, max: Int)>((0, 0))
    /// Per event: how many hooks of that event run now, and the most ever seen.
    private let inFlightByEvent = Mutex<[String: (now: Int, max: Int)]>([:])

    /// An empty log.
    public init() {}

    /// Appends `item` (`name.event` for a hook) and wakes the waits on the recorder.
    public func append(_ item: String) {
        items.withLock { $0.append(item) }
        changes.signal()
    }
    /// Everything appended, in order.
    public var all: [String] { items.withLock { $0 } }

    /// The entries that end with `.event`, without that suffix: `["a", "b"]` for `a.init`, `b.init`.
    public func modules(for event: String) -> [String] {
        all.compactMap { item in
            item.hasSuffix(".\(event)") ? String(item.dropLast(event.count + 1)) : nil
        }
    }

    /// Tracks how many hooks run at once, in all and per event; `maxInFlight` is the most
    /// ever seen.
    public func enter(_ event: String = "") {
        inFlight.withLock { $0.now += 1; $0.max = Swift.max($0.max, $0.now) }
        inFlightByEvent.withLock { counts in
            var count = counts[event] ?? (0, 0)
            count.now += 1
            count.max = Swift.max(count.max, count.now)
            counts[event] = count
        }
    }
    /// Ends what ``enter(_:)`` began.
    public func leave(_ event: String = "") {
        inFlight.withLock { $0.now -= 1 }
        inFlightByEvent.withLock { $0[event]?.now -= 1 }
    }
    /// The most hooks ever seen running at once.
    public var maxInFlight: Int { inFlight.withLock { $0.max } }
    /// The most hooks of `event` ever seen running at once.
    public func maxInFlight(during event: String) -> Int { inFlightByEvent.withLock { $0[event]?.max ?? 0 } }
}
