import Logging

/// Where a daemon's log lines go, as
/// ``HiveLogging/setUp(identity:target:level:environment:mayBootstrap:)`` decided; makes the
/// daemon's loggers accordingly.
///
/// Whatever the handler, the daemon's loggers follow ``HiveLogging/level`` (the
/// configuration's `log.level`, which a reload changes) until a logger sets its own level.
enum LogSetup: Sendable, Hashable {
    /// HiveDaemon's handlers, installed with `LoggingSystem.bootstrap`: the journal or stderr.
    case installed(LogTarget)
    /// The process's own handler: the one it bootstrapped, or swift-log's default.
    case external

    /// Where lines go: ``LogTarget/journal`` or ``LogTarget/stderr``; `nil` for the
    /// process's own handler.
    var target: LogTarget? {
        switch self {
        case .installed(let target): target
        case .external: nil
        }
    }

    /// A logger labelled `label` that writes where this setup says.
    func logger(label: String) -> Logger {
        switch self {
        case .installed:
            Logger(label: label)
        case .external:
            Logger(label: label) { label in SharedLevelLogHandler(wrapping: Logger(label: label).handler) }
        }
    }
}
