import Logging

/// One log record a ``CollectingLogHandler`` kept.
public struct LogRecord: Sendable {
    /// Its level.
    public let level: Logger.Level
    /// Its message.
    public let message: String
    /// Its metadata (the handler's and the call's), as strings.
    public let metadata: [String: String]
    /// When it was logged.
    public var at: ContinuousClock.Instant = .now
}
