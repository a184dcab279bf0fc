import HiveKit
import Logging

extension DaemonConfiguration {
    /// This configuration with the values of the `HIVED_*` variables in `environment`
    /// taking precedence over the file's.
    ///
    /// `HIVED_ENVIRONMENT` (`development`…`production`), `HIVED_LOG_LEVEL` (`trace`…
    /// `critical`), `HIVED_LOG_TARGET` (`auto`, `journal`, `stderr`), `HIVED_BUDGET_EVENT`
    /// and `HIVED_BUDGET_STOP` (durations such as `250ms`, `5s`, `2m`). An unset or empty
    /// variable changes nothing; other variables are ignored.
    ///
    /// - Throws: ``HiveError`` (`invalidConfiguration`) naming the variable whose value
    ///   is invalid.
    public func applyingOverrides(from environment: [String: String]) throws(HiveError) -> DaemonConfiguration {
        var result = self
        func value(_ name: String) -> String? {
            guard let value = environment[name]?.trimmingWhitespace(), !value.isEmpty else { return nil }
            return value
        }
        func choice<Value>(_ name: String, _ choices: [(String, Value)]) throws(HiveError) -> Value? {
            guard let text = value(name) else { return nil }
            guard let match = choices.first(where: { $0.0 == text }) else {
                let names = choices.map(\.0).joined(separator: ", ")
                throw HiveError(.invalidConfiguration, "\(name): expected one of \(names); got '\(text)'")
            }
            return match.1
        }
        func duration(_ name: String) throws(HiveError) -> Duration? {
            guard let text = value(name) else { return nil }
            guard let duration = Duration(parsing: text), duration > .zero else {
                throw HiveError(
                    .invalidConfiguration,
                    "\(name): expected a duration longer than zero such as 250ms, 5s or 2m; got '\(text)'")
            }
            return duration
        }
        if let environment = try choice("HIVED_ENVIRONMENT", HiveEnvironment.allCases.map { ($0.rawValue, $0) }) {
            result.environment = environment
        }
        if let level = try choice("HIVED_LOG_LEVEL", Logger.Level.allCases.map { ($0.rawValue, $0) }) {
            result.log.level = level
        }
        if let target = try choice("HIVED_LOG_TARGET", LogTarget.allCases.map { ($0.rawValue, $0) }) {
            result.log.target = target
        }
        if let event = try duration("HIVED_BUDGET_EVENT") { result.budgets.event = event }
        if let stop = try duration("HIVED_BUDGET_STOP") { result.budgets.stop = stop }
        return result
    }
}
