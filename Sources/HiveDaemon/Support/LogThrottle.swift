import HiveKit

/// At most one log message per interval for a condition that may recur thousands of times
/// a second (a flood of connections, a listener out of descriptors): the occurrences in
/// between are counted, and the next message says how many there were.
package struct LogThrottle {
    /// The shortest time between two messages, in nanoseconds.
    private let interval: UInt64
    /// When the last message went out (monotonic nanoseconds).
    private var last: UInt64?
    private var unlogged = 0

    /// A throttle that lets one message through per `interval`.
    package init(interval: Duration) {
        self.interval = interval.nanosecondsClamped
    }

    /// Notes one occurrence at `now`. Returns how many occurrences went unlogged since the
    /// last message when this one is to be logged, `nil` when it is only counted.
    package mutating func admit(now: UInt64 = MonotonicClock.nanoseconds()) -> Int? {
        if let last, now &- last < interval {
            unlogged += 1
            return nil
        }
        defer {
            last = now
            unlogged = 0
        }
        return unlogged
    }

    /// Takes the count of occurrences not logged yet (to report when the condition ends),
    /// and lets the next occurrence be logged at once.
    package mutating func reset() -> Int {
        defer {
            last = nil
            unlogged = 0
        }
        return unlogged
    }
}
