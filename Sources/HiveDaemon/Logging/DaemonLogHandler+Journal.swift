import HiveKit
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DaemonLogHandler {
    /// Where journald listens for native entries, the path libsystemd sends to.
    static let socketPath = "/run/systemd/journal/socket"

    /// Whether journald's socket exists (`access(2)`), i.e. whether entries can arrive.
    static func journalAvailable(socketPath: String = socketPath) -> Bool {
        access(socketPath, F_OK) == 0
    }

    /// The journal fields for one log call, in this order: `MESSAGE`, `PRIORITY`,
    /// `SYSLOG_IDENTIFIER`, `CODE_FILE`, `CODE_LINE`, `CODE_FUNC`, `HIVE_MODULE` and
    /// `HIVE_EVENT` (when those metadata keys are set), the other metadata as `HIVE_<KEY>`
    /// sorted by key, and `HIVE_ERROR` when the call passed an error.
    ///
    /// `MESSAGE` reads as the stderr line does, the module and the event first
    /// (`[store] init: slow handler`, one formatter for both outputs), so that it stands on its
    /// own in `journalctl`'s default output; the fields are for filtering
    /// (`journalctl HIVE_MODULE=store`). The message itself is kept whole, newlines included.
    ///
    /// Pure: builds the list without touching journald.
    ///
    /// - Parameters:
    ///   - event: the log call.
    ///   - metadata: the merged metadata to write (the handler's, the provider's, the call's).
    ///   - identifier: the `SYSLOG_IDENTIFIER`.
    static func fields(
        for event: LogEvent,
        metadata: Logger.Metadata,
        identifier: String
    ) -> [JournalField] {
        var fields = [JournalField]()
        fields.reserveCapacity(8 + metadata.count)
        fields.append(JournalField("MESSAGE", ModuleEventPrefix.prefix(metadata) + event.message.description))
        fields.append(JournalField("PRIORITY", String(syslogPriority(of: event.level))))
        fields.append(JournalField("SYSLOG_IDENTIFIER", identifier))
        fields.append(JournalField("CODE_FILE", event.file))
        fields.append(JournalField("CODE_LINE", String(event.line)))
        fields.append(JournalField("CODE_FUNC", event.function))
        if let module = metadata["module"] { fields.append(JournalField("HIVE_MODULE", "\(module)")) }
        if let name = metadata["event"] { fields.append(JournalField("HIVE_EVENT", "\(name)")) }
        for key in metadata.keys.sorted() where key != "module" && key != "event" {
            fields.append(JournalField(JournalField.metadataName(forKey: key), "\(metadata[key]!)"))
        }
        if let error = event.error { fields.append(JournalField("HIVE_ERROR", "\(error)")) }
        return fields
    }

    /// The syslog priority journald expects for a swift-log level: critical 2, error 3,
    /// warning 4, notice 5, info 6, debug and trace 7.
    static func syslogPriority(of level: Logger.Level) -> Int {
        switch level {
        case .critical: 2
        case .error: 3
        case .warning: 4
        case .notice: 5
        case .info: 6
        case .debug, .trace: 7
        }
    }
}
