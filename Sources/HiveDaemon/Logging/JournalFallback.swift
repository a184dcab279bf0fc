import HiveKit
import Logging
import Synchronization

/// Where a ``DaemonLogHandler`` for the journal sends an entry journald did not take: a plain stderr
/// line, preceded once (per fallback: the process has one, ``shared``) by a notice saying why.
final class JournalFallback: Sendable {
    /// The process's fallback, which ``JournalWriter`` uses.
    static let shared = JournalFallback()

    private let noticed = Atomic<Bool>(false)

    /// Writes `event` to stderr as a ``DaemonLogHandler`` for stderr would, after the notice if it is
    /// the first.
    func write(_ event: LogEvent, metadata: Logger.Metadata, identifier: String, error: SystemdError) {
        if !noticed.exchange(true, ordering: .relaxed) {
            StderrWriter.write("\(identifier): journal unavailable (\(error)); logging to stderr\n")
        }
        StderrWriter.write(DaemonLogHandler.formatLine(
            timestamp: DaemonLogHandler.timestamp(), level: event.level, message: event.message.description,
            metadata: metadata, error: event.error))
    }
}
