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
    package let isAbandoned: Bool

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
