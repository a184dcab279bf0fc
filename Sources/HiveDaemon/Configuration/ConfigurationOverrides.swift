import HiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The environment variables that override a configuration file, named after the daemon:
/// `PREFIX_ENVIRONMENT`, `PREFIX_LOG_LEVEL`, `PREFIX_LOG_TARGET`, `PREFIX_BUDGET_EVENT`,
/// `PREFIX_BUDGET_STOP` (`MYDAEMON_LOG_LEVEL=debug` for the daemon named `mydaemon`).
///
/// Make one with ``DaemonIdentity/overrides(in:)`` or
/// ``DaemonIdentity/processOverrides()``; ``none`` overrides nothing.
public struct ConfigurationOverrides: Sendable, Hashable {
    /// What follows the prefix in each variable's name, in the order they are applied.
    static let suffixes = ["ENVIRONMENT", "LOG_LEVEL", "LOG_TARGET", "BUDGET_EVENT", "BUDGET_STOP"]

    /// The prefix of every variable, `_` included (`MYDAEMON_`).
    let prefix: String
    /// The override variables that are set, by full name; other variables are left out.
    let values: [String: String]

    /// The overrides `environment` holds for variables named `prefix` + a suffix.
    init(prefix: String, environment: [String: String]) {
        self.prefix = prefix
        var values: [String: String] = [:]
        for suffix in Self.suffixes {
            if let value = environment[prefix + suffix] { values[prefix + suffix] = value }
        }
        self.values = values
    }

    /// No overrides.
    public static let none = ConfigurationOverrides(prefix: "", environment: [:])

    /// The full names of the variables, in the order they are applied.
    var variableNames: [String] { Self.suffixes.map { prefix + $0 } }

    /// The value of the variable `prefix` + `suffix`, when set to more than whitespace.
    func value(_ suffix: String) -> (name: String, value: String)? {
        let name = prefix + suffix
        guard let value = values[name]?.trimmingWhitespace(), !value.isEmpty else { return nil }
        return (name, value)
    }
}

extension DaemonIdentity {
    /// The overrides of this daemon (`NAME_LOG_LEVEL`…) that `environment` holds.
    public func overrides(in environment: [String: String]) -> ConfigurationOverrides {
        ConfigurationOverrides(prefix: environmentPrefix, environment: environment)
    }

    /// The overrides of this daemon set in this process, read now with `getenv`.
    public func processOverrides() -> ConfigurationOverrides {
        var environment: [String: String] = [:]
        for suffix in ConfigurationOverrides.suffixes {
            let name = environmentVariable(suffix)
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return overrides(in: environment)
    }
}
