import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The application's own log handler: `APP label level: message metadata` on stderr.
struct AppLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, call in call }
        let fields = merged.keys.sorted().map { "\($0)=\(merged[$0]!)" }.joined(separator: " ")
        var line = "APP \(label) \(event.level): \(event.message) \(fields)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
