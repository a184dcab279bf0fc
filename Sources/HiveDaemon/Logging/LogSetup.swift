import Logging

/// Where a daemon's log lines go, as ``HiveLogging/setUp(identity:target:level:environment:policy:)``
/// decided; makes the daemon's loggers accordingly.
///
/// Whatever the handler, the daemon's loggers follow ``HiveLogging/level`` (the
/// configuration's `log.level`, which a reload changes) until a logger sets its own level.
public enum LogSetup: Sendable, Hashable {
    /// HiveDaemon's handlers, installed with `LoggingSystem.bootstrap`: the journal or stderr.
    case installed(LogTarget)
    /// HiveDaemon's handlers for the daemon's loggers only, the process's bootstrap untouched.
    case own(LogTarget)
    /// The handler the process bootstrapped itself.
    case external

    /// Where lines go: ``LogTarget/journal`` or ``LogTarget/stderr``; `nil` for the
    /// process's own handler.
    public var target: LogTarget? {
        switch self {
        case .installed(let target), .own(let target): target
        case .external: nil
        }
    }

    /// A logger labelled `label` that writes where this setup says.
    public func logger(label: String, identifier: String) -> Logger {
        switch self {
        case .installed:
            return Logger(label: label)
        case .own(let target):
            return Logger(label: label) { _ in HiveLogging.makeHandler(target: target, identifier: identifier) }
        case .external:
            return Logger(label: label) { label in SharedLevelLogHandler(wrapping: Logger(label: label).handler) }
        }
    }
}
