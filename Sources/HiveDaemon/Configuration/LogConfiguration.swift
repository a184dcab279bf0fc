import HiveKit
import Logging

/// How much the daemon logs and where to (the `log:` section of the configuration).
///
/// ## Configuration keys
/// - `log.level`: `trace`, `debug`, `info` (default), `notice`, `warning`, `error` or
///   `critical`; overridden by `NAME_LOG_LEVEL`.
/// - `log.target`: `auto` (default), `journal` or `stderr`; overridden by `NAME_LOG_TARGET`.
public struct LogConfiguration: Sendable, Hashable {
    /// The lowest level that is logged.
    public var level: Logger.Level
    /// Where records go.
    public var target: LogTarget

    /// The level names a configuration accepts, lowest first.
    static let levels = Logger.Level.allCases.map { ($0.rawValue, $0) }
    /// Other names accepted for a level: `warn` for `warning`.
    static let levelAliases = [("warn", Logger.Level.warning)]

    /// A log configuration; the defaults are `info` and `auto`.
    init(level: Logger.Level = .info, target: LogTarget = .auto) {
        self.level = level
        self.target = target
    }
}
