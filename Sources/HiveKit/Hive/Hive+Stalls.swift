import Logging

/// A hook that is running: past its time budget when ``Hive/stalledHandlers()`` lists it.
public struct StalledHandler: Sendable, Hashable, CustomStringConvertible {
    /// The module whose hook runs.
    public let module: String
    /// The event it handles.
    public let event: EventKind
    /// How long it has been running.
    public let elapsed: Duration
    /// Its budget.
    public let budget: Duration
    /// Whether the hive gave up waiting for it (at a stop, past its budget) and it has
    /// still not returned.
    public let isAbandoned: Bool

    init(module: String, event: EventKind, elapsed: Duration, budget: Duration, isAbandoned: Bool = false) {
        self.module = module
        self.event = event
        self.elapsed = elapsed
        self.budget = budget
        self.isAbandoned = isAbandoned
    }

    /// `module 'store' stalled in teardown for 31.2s (budget 10s)`, `… still in …` when
    /// within its budget, or `module 'store' abandoned in teardown, still running after
    /// 31.2s (budget 10s)`.
    public var description: String {
        let budget = "(budget \(budget.shortDescription))"
        if isAbandoned {
            return "module '\(module)' abandoned in \(event), still running after \(elapsed.shortDescription) \(budget)"
        }
        let state = elapsed > self.budget ? "stalled" : "still"
        return "module '\(module)' \(state) in \(event) for \(elapsed.shortDescription) \(budget)"
    }
}

extension Hive {
    /// Hooks running past their budget right now (BeeHive's `BHWatchDog`), from the
    /// moment the hive's stall timer saw them, which is when it logged them: a watchdog
    /// fed only while this is empty stops at the same instant. Empty means event delivery
    /// is healthy.
    public func stalledHandlers() -> [StalledHandler] {
        handlersInFlight(stalledOnly: true)
    }

    /// Hooks running now, past their budget or not: what a stop is waiting for.
    public func runningHandlers() -> [StalledHandler] {
        handlersInFlight(stalledOnly: false)
    }

    /// Hooks abandoned past their budget (at `terminate`, `teardown` or `unmount`) that have
    /// still not returned: each holds a task, and perhaps a thread, of its own.
    public func abandonedHandlers() -> [StalledHandler] {
        let now = MonotonicClock.nanoseconds()
        return state.withLock { $0.entries }.compactMap { entry in
            guard let abandoned = entry.runtime.abandoned(now: now) else { return nil }
            return StalledHandler(
                module: entry.name, event: abandoned.kind,
                elapsed: .nanoseconds(Int64(clamping: abandoned.elapsed)), budget: budget(of: entry),
                isAbandoned: true)
        }
    }

    private func handlersInFlight(stalledOnly: Bool) -> [StalledHandler] {
        let now = MonotonicClock.nanoseconds()
        return state.withLock { $0.entries }.compactMap { entry in
            guard let running = entry.runtime.inFlight(now: now),
                !stalledOnly || entry.runtime.reportedStall.load(ordering: .relaxed) == running.since
            else { return nil }
            return StalledHandler(
                module: entry.name, event: running.kind,
                elapsed: .nanoseconds(Int64(clamping: running.elapsed)), budget: budget(of: entry))
        }
    }

    /// Makes sure the stall timer fires by the earliest moment a hook of the turn that
    /// begins can pass its budget; called when a turn begins, after ``turnInProgress`` was
    /// stored. Costs a clock read and two atomic loads, unless the timer must be re-armed.
    func watchForStalls() {
        let earliest = MonotonicClock.nanoseconds() &+ minimumBudget.load(ordering: .relaxed)
        guard !stallWatch.isArmed(byOrBefore: earliest) else { return }
        armStallCheck(at: earliest)
    }

    private func armStallCheck(at deadline: UInt64) {
        stallWatch.arm(at: deadline) { [weak self] in self?.checkStalls() }
    }

    /// Runs on the timer's queue when a deadline passed: logs, once per call, every hook
    /// past its budget, then arms the timer for the next deadline — the earliest of the
    /// hooks in flight, or, while a turn is under way, its earliest possible one (a hook
    /// starting now with the smallest budget). Between turns with nothing in flight, the
    /// timer rests.
    private func checkStalls() {
        stallWatch.rest()
        let now = MonotonicClock.nanoseconds()
        let (entries, defaultBudget) = state.withLock { ($0.entries, $0.defaultBudget.nanosecondsClamped) }
        var next = UInt64.max
        for entry in entries {
            guard let running = entry.runtime.inFlight(now: now) else { continue }
            let budget = entry.descriptor.budget?.nanosecondsClamped ?? defaultBudget
            guard running.elapsed >= budget else {
                next = min(next, running.since &+ budget)
                continue
            }
            guard entry.runtime.reportedStall.exchange(running.since, ordering: .relaxed) != running.since else {
                continue
            }
            entry.runtime.stats.withLock { $0[Int(running.kind.rawValue)].recordStall() }
            let elapsed = Duration.nanoseconds(Int64(clamping: running.elapsed)).shortDescription
            let allowed = Duration.nanoseconds(Int64(clamping: budget)).shortDescription
            entry.logger.warning(
                "still running after \(elapsed), past its budget of \(allowed)",
                metadata: ["event": .stringConvertible(running.kind)])
        }
        if turnInProgress.load(ordering: .sequentiallyConsistent) != 0 {
            next = min(next, now &+ minimumBudget.load(ordering: .relaxed))
        }
        if next != .max { armStallCheck(at: next) }
    }
}
