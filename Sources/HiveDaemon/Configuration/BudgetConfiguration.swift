import HiveKit
/// The daemon's time budgets (the `budgets:` section of the configuration).
///
/// ## Configuration keys
/// - `budgets.event`: how long one module's hook may run for one event before it is
///   reported as stalled (default `5s`); a module's own `budget:` overrides it.
///   Overridden by `NAME_BUDGET_EVENT`.
/// - `budgets.stop`: how long the whole stop (`terminate`, then every `teardown`) may
///   take (default `30s`). Overridden by `NAME_BUDGET_STOP`.
public struct BudgetConfiguration: Sendable, Hashable {
    /// The shortest budget accepted (1 ms): anything shorter is a configuration error.
    static let minimum: Duration = .milliseconds(1)

    /// Time budget of one hook call when the module names none.
    public var event: Duration
    /// Time budget of the whole stop sequence.
    public var stop: Duration

    /// Budgets; the defaults are 5 s per event and 30 s for the whole stop.
    init(event: Duration = .seconds(5), stop: Duration = .seconds(30)) {
        self.event = event
        self.stop = stop
    }
}
