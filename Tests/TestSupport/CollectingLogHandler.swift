import Logging

/// A log handler that keeps every record, at every level, in a ``LogStore``.
public struct CollectingLogHandler: LogHandler {
    /// Where the records go.
    public let store: LogStore
    /// The handler's own metadata, merged into every record.
    public var metadata: Logger.Metadata = [:]
    /// Every level: tests filter what they look at.
    public var logLevel: Logger.Level = .trace

    /// A handler writing into `store`.
    public init(store: LogStore) { self.store = store }

    /// The handler's metadata for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Keeps the record, its metadata merged with the handler's.
    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        store.append(LogRecord(
            level: event.level, message: event.message.description,
            metadata: merged.mapValues { $0.description }))
    }
}
