/// The profiler's record of one module's calls for one event kind
/// (BeeHive's `BHTimeProfiler`).
public struct HandlerStats: Sendable, Hashable {
    /// Calls made.
    public private(set) var calls = 0
    /// Calls that threw.
    public private(set) var failures = 0
    /// Calls abandoned past their budget.
    public private(set) var abandoned = 0
    /// Time spent in all calls.
    public private(set) var total = Duration.zero
    /// The longest call.
    public private(set) var longest = Duration.zero
    /// The latest call's duration.
    public private(set) var last = Duration.zero
    /// The latest call's outcome; `nil` before the first call.
    package private(set) var lastOutcome: HandlerOutcome?
    /// Calls seen running past their budget by the hive's stall timer (counted once
    /// per call, while it runs; it may still return).
    public private(set) var stalls = 0

    /// No calls yet.
    package init() {}

    /// The mean duration of a call.
    public var average: Duration { calls == 0 ? .zero : total / calls }

    mutating func recordStall() {
        stalls += 1
    }

    mutating func record(nanoseconds: UInt64, outcome: HandlerOutcome) {
        let duration = Duration.nanoseconds(Int64(clamping: nanoseconds))
        calls += 1
        if outcome == .failed { failures += 1 }
        if outcome == .abandoned { abandoned += 1 }
        total += duration
        if duration > longest { longest = duration }
        last = duration
        lastOutcome = outcome
    }
}
