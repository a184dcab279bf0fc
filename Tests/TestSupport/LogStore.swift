import Logging
import Synchronization

/// Collects log records in memory so tests can assert what was logged; a wait on it
/// (``waitUntil(_:timeout:wakingOn:detail:_:)``) wakes on each record.
public final class LogStore: SignalsChanges {
    private let records = Mutex<[LogRecord]>([])
    /// Signalled after each record.
    public let changes = ChangeSignal()

    /// An empty store.
    public init() {}

    /// Keeps `record` and wakes the waits on the store.
    public func append(_ record: LogRecord) {
        records.withLock { $0.append(record) }
        changes.signal()
    }
    /// Every record kept, in order.
    public var all: [LogRecord] { records.withLock { $0 } }

    /// A logger labelled `hived` that writes here.
    public var logger: Logger {
        Logger(label: "hived") { _ in CollectingLogHandler(store: self) }
    }
}
