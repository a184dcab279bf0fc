import HiveKit
import Logging

extension DaemonConfiguration {
    /// The ``/HiveKit/HiveConfiguration`` this configuration asks for: its environment and its
    /// per-event budget, with `logger` as the modules' base logger.
    ///
    /// The logger is the caller's: this type does not build log handlers.
    func hiveConfiguration(logger: Logger) -> HiveConfiguration {
        HiveConfiguration(environment: environment, defaultBudget: budgets.event, logger: logger)
    }
}
