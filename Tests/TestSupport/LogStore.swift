import Logging
import Synchronization

/// Collects log records in memory so tests can assert what was logged.
public final class LogStore: Sendable {
    private let records = Mutex<[LogRecord]>([])

    /// An empty store.
    public init() {}

    /// Keeps `record`.
    public func append(_ record: LogRecord) { records.withLock { $0.append(record) } }
    /// Every record kept, in order.
    public var all: [LogRecord] { records.withLock { $0 } }

    /// A logger labelled `hived` that writes here.
    public var logger: Logger {
        Logger(label: "hived") { _ in CollectingLogHandler(store: self) }
    }
}
