import HiveKit
import Logging

extension DaemonConfiguration {
    /// This configuration with the values of the override variables taking precedence
    /// over the file's.
    ///
    /// `PREFIX_ENVIRONMENT` (`development`…`production`), `PREFIX_LOG_LEVEL` (`trace`…
    /// `critical`; `warn` is taken for `warning`), `PREFIX_LOG_TARGET` (`auto`, `journal`, `stderr`), `PREFIX_BUDGET_EVENT`
    /// and `PREFIX_BUDGET_STOP` (durations such as `250ms`, `5s`, `2m`), where `PREFIX` is
    /// the daemon's (``DaemonIdentity/environmentPrefix``). An unset or empty variable
    /// changes nothing.
    ///
    /// - Throws: ``/HiveKit/HiveError`` (`invalidConfiguration`) naming the variable whose value
    ///   is invalid.
    func applyingOverrides(_ overrides: ConfigurationOverrides) throws(HiveError) -> DaemonConfiguration {
        var result = self
        func choice<Value>(
            _ suffix: String, _ choices: [(String, Value)], aliases: [(String, Value)] = []
        ) throws(HiveError) -> Value? {
            guard let (name, text) = overrides.value(suffix) else { return nil }
            guard let match = (choices + aliases).first(where: { $0.0 == text }) else {
                let names = choices.map(\.0).joined(separator: ", ")
                throw HiveError(.invalidConfiguration, "\(name): expected one of \(names); got \(quoted: text)")
            }
            return match.1
        }
        func duration(_ suffix: String) throws(HiveError) -> Duration? {
            guard let (name, text) = overrides.value(suffix) else { return nil }
            switch Duration.parse(text) {
            case .valid(let duration) where duration >= BudgetConfiguration.minimum:
                return duration
            case .beyondLimit:
                throw HiveError(.invalidConfiguration, "\(name): expected a duration of at most 100 years; got \(quoted: text)")
            default:
                throw HiveError(
                    .invalidConfiguration,
                    "\(name): expected a duration of at least 1ms such as 250ms, 5s or 2m; got \(quoted: text)")
            }
        }
        if let environment = try choice("ENVIRONMENT", HiveEnvironment.allCases.map { ($0.rawValue, $0) }) {
            result.environment = environment
        }
        if let level = try choice("LOG_LEVEL", LogConfiguration.levels, aliases: LogConfiguration.levelAliases) {
            result.log.level = level
        }
        if let target = try choice("LOG_TARGET", LogTarget.allCases.map { ($0.rawValue, $0) }) {
            result.log.target = target
        }
        if let event = try duration("BUDGET_EVENT") { result.budgets.event = event }
        if let stop = try duration("BUDGET_STOP") { result.budgets.stop = stop }
        return result
    }
}
