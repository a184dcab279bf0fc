import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The application's own log handler: `APP label level: message metadata` on stderr.
public struct AppLogHandler: LogHandler {
    /// The logger's label.
    public let label: String
    /// The lowest level written.
    public var logLevel: Logger.Level = .info
    /// Metadata of every line.
    public var metadata: Logger.Metadata = [:]

    /// A handler for the logger labelled `label`.
    public init(label: String) {
        self.label = label
    }

    /// One metadata value of every line.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the line to stderr.
    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, call in call }
        let fields = merged.keys.sorted().map { "\($0)=\(merged[$0]!)" }.joined(separator: " ")
        var line = "APP \(label) \(event.level): \(event.message) \(fields)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
