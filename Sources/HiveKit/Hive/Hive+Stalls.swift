import Logging

extension Hive {
    /// Hooks running past their budget right now (BeeHive's `BHWatchDog`), from the
    /// moment the hive's stall timer saw them, which is when it logged them: a watchdog
    /// fed only while this is empty stops at the same instant. Empty means event delivery
    /// is healthy.
    public func stalledHandlers() -> [StalledHandler] {
        handlersInFlight(stalledOnly: true)
    }

    /// Hooks running now, past their budget or not: what a stop is waiting for.
    package func runningHandlers() -> [StalledHandler] {
        handlersInFlight(stalledOnly: false)
    }

    /// Hooks abandoned past their budget (at `terminate`, `teardown` or `unmount`) that have
    /// still not returned: each holds a task, and perhaps a thread, of its own.
    package func abandonedHandlers() -> [StalledHandler] {
        let now = MonotonicClock.nanoseconds()
        return state.withLock { $0.modules }.compactMap { module in
            guard let abandoned = module.abandoned(now: now) else { return nil }
            return StalledHandler(
                module: module.name, event: abandoned.kind,
                elapsed: .nanoseconds(Int64(clamping: abandoned.elapsed)), budget: budget(of: module),
                isAbandoned: true)
        }
    }

    private func handlersInFlight(stalledOnly: Bool) -> [StalledHandler] {
        let now = MonotonicClock.nanoseconds()
        return state.withLock { $0.modules }.compactMap { module in
            guard let running = module.inFlight(now: now),
                !stalledOnly || module.reportedStall.load(ordering: .relaxed) == running.since
            else { return nil }
            return StalledHandler(
                module: module.name, event: running.kind,
                elapsed: .nanoseconds(Int64(clamping: running.elapsed)), budget: budget(of: module), isAbandoned: false)
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
        let (modules, defaultBudget) = state.withLock { ($0.modules, $0.defaultBudget.nanosecondsClamped) }
        var next = UInt64.max
        for module in modules {
            guard let running = module.inFlight(now: now) else { continue }
            let budget = module.budget?.nanosecondsClamped ?? defaultBudget
            guard running.elapsed >= budget else {
                next = min(next, running.since &+ budget)
                continue
            }
            guard module.reportedStall.exchange(running.since, ordering: .relaxed) != running.since else {
                continue
            }
            module.stats.withLock { $0[Int(running.kind.rawValue)].recordStall() }
            let elapsed = Duration.nanoseconds(Int64(clamping: running.elapsed)).shortDescription
            let allowed = Duration.nanoseconds(Int64(clamping: budget)).shortDescription
            module.logger.warning(
                "still running after \(elapsed), past its budget of \(allowed)",
                metadata: ["event": .stringConvertible(running.kind)])
        }
        if turnInProgress.load(ordering: .sequentiallyConsistent) != 0 {
            next = min(next, now &+ minimumBudget.load(ordering: .relaxed))
        }
        if next != .max { armStallCheck(at: next) }
    }
}
