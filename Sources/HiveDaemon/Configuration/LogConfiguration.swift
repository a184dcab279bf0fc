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

    /// A log configuration; the defaults are `info` and `auto`.
    public init(level: Logger.Level = .info, target: LogTarget = .auto) {
        self.level = level
        self.target = target
    }
}
