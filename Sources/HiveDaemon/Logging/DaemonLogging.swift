/// Who owns swift-log's process-wide bootstrap when a daemon starts.
///
/// swift-log allows one `LoggingSystem.bootstrap` per process (a second one traps) and
/// has no public way to ask whether it happened. HiveDaemon therefore takes a fresh
/// logger's handler for the answer: anything other than swift-log's default
/// (`StreamLogHandler`) means the process bootstrapped its own, and the daemon uses it.
public enum DaemonLogging: Sendable, Hashable {
    /// The daemon owns the process (its `main` is the daemon's command line): unless the
    /// process already bootstrapped swift-log, HiveDaemon bootstraps it with its own
    /// handlers (journal or stderr, per `log.target`), so every `Logger(label:)` in the
    /// process uses them. A process that bootstrapped swift-log's own `StreamLogHandler`
    /// cannot be told from one that did not: use ``cooperate`` there.
    case bootstrap
    /// The application owns swift-log (a daemon run as a service of its own `main`):
    /// HiveDaemon never calls `LoggingSystem.bootstrap`. Its loggers (the daemon's and the
    /// modules') use the process's handler when one was bootstrapped, else HiveDaemon's
    /// own handlers, made for those loggers alone.
    case cooperate
}
