import HiveKit
import Logging
import Synchronization

/// Where a ``JournalLogHandler`` sends an entry journald did not take: a plain stderr
/// line, preceded once per process by a notice saying why.
enum JournalFallback {
    private static let noticed = Atomic<Bool>(false)

    static func write(_ event: LogEvent, metadata: Logger.Metadata, identifier: String, error: SystemdError) {
        if !noticed.exchange(true, ordering: .relaxed) {
            StderrWriter.write("\(identifier): journal unavailable (\(error)); logging to stderr\n")
        }
        StderrWriter.write(StderrLogHandler.formatLine(
            timestamp: StderrLogHandler.timestamp(), level: event.level, message: event.message.description,
            metadata: metadata, error: event.error))
    }
}
