import HiveKit

/// What the configuration says of the daemon itself, its modules aside, as the daemon
/// applies it: set when the file is first read; a committed reload replaces what may
/// change at once (signals, budgets, sleep budget, pressure interval) and leaves the rest
/// for the next start.
struct DaemonSettings {
    var signals: [Int32: HiveEvent] = [:]
    var stopBudget: Duration = .seconds(30)
    var logTarget: LogTarget = .auto
    var services: [ServiceSpec] = []
    var control = ControlConfiguration()
    var sleep = SleepConfiguration()
    var memoryPressure = MemoryPressureConfiguration()

    /// Before the file is read: a stop is timed with the override of `budgets.stop`
    /// (`NAME_BUDGET_STOP`) when it is valid, else the default.
    init(overrides: ConfigurationOverrides) {
        if let (_, text) = overrides.value("BUDGET_STOP"), let budget = Duration(parsing: text),
            budget >= BudgetConfiguration.minimum
        {
            stopBudget = budget
        }
    }

    /// What `configuration` says. A stop under way keeps the budget it started with.
    mutating func apply(_ configuration: DaemonConfiguration, keepingStopBudget: Bool) {
        signals = configuration.signals
        if !keepingStopBudget { stopBudget = configuration.budgets.stop }
        logTarget = configuration.log.target
        services = configuration.services
        control = configuration.control
        sleep = configuration.sleep
        memoryPressure = configuration.memoryPressure
    }
}
