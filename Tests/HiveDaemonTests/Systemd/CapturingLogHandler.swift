import Logging
import Synchronization

/// A log handler that keeps every event, for tests that assert what was logged.
struct CapturingLogHandler: LogHandler {
    final class Store: Sendable {
        let events = Mutex<[LogEvent]>([])
        var all: [LogEvent] { events.withLock { $0 } }
    }

    let store: Store
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.events.withLock { $0.append(event) }
    }

    static func logger() -> (Logger, Store) {
        let store = Store()
        return (Logger(label: "hived") { _ in CapturingLogHandler(store: store) }, store)
    }
}
