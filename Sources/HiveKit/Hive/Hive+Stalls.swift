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
    /// Hooks running past their budget right now (BeeHive's `BHWatchDog`). Empty means
    /// event delivery is healthy: a supervisor's watchdog may be fed.
    public func stalledHandlers() -> [StalledHandler] {
        handlersInFlight(pastBudgetOnly: true)
    }

    /// Hooks running now, past their budget or not: what a stop is waiting for.
    public func runningHandlers() -> [StalledHandler] {
        handlersInFlight(pastBudgetOnly: false)
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

    private func handlersInFlight(pastBudgetOnly: Bool) -> [StalledHandler] {
        let now = MonotonicClock.nanoseconds()
        return state.withLock { $0.entries }.compactMap { entry in
            guard let running = entry.runtime.inFlight(now: now) else { return nil }
            let budget = budget(of: entry)
            guard !pastBudgetOnly || running.elapsed > budget.nanosecondsClamped else { return nil }
            return StalledHandler(
                module: entry.name, event: running.kind,
                elapsed: .nanoseconds(Int64(clamping: running.elapsed)), budget: budget)
        }
    }

    /// Logs, once per call, every hook that ran past its budget since the last check.
    func reportNewStalls() {
        let now = MonotonicClock.nanoseconds()
        for entry in state.withLock({ $0.entries }) {
            guard let running = entry.runtime.inFlight(now: now),
                running.elapsed > budget(of: entry).nanosecondsClamped,
                entry.runtime.reportedStall.exchange(running.since, ordering: .relaxed) != running.since
            else { continue }
            entry.runtime.stats.withLock { $0[Int(running.kind.rawValue)].recordStall() }
            let stall = StalledHandler(
                module: entry.name, event: running.kind,
                elapsed: .nanoseconds(Int64(clamping: running.elapsed)), budget: budget(of: entry))
            entry.logger.warning(
                "\(stall)", metadata: ["event": .stringConvertible(running.kind)])
        }
    }

    /// Starts checking running hooks against their budgets.
    func startMonitor() {
        let interval = configuration.stallCheckInterval
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                self.reportNewStalls()
            }
        }
        state.withLock { $0.monitor = task }
    }

    /// Stops the budget checks (after teardown or a failed start).
    func stopMonitor() {
        state.withLock { state in
            state.monitor?.cancel()
            state.monitor = nil
        }
    }
}
