import HiveKit
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A swift-log handler that writes structured entries to journald with `sd_journal_sendv`.
///
/// Each entry carries `MESSAGE` (the message after `[module] event: `, as on stderr),
/// `PRIORITY` (syslog 0–7), `SYSLOG_IDENTIFIER`,
/// `CODE_FILE`, `CODE_LINE`, `CODE_FUNC`, `HIVE_MODULE` and `HIVE_EVENT` (from the metadata
/// keys `module` and `event`), and every other metadata key as `HIVE_<KEY>`
/// (see ``JournalField/metadataName(forKey:)``); ``fields(for:metadata:identifier:)`` builds
/// the list without touching journald.
///
/// Where no journald runs at all, `sd_journal_sendv` drops entries and reports success
/// (it ignores `ENOENT` on purpose); ``journalAvailable(socketPath:)`` tells beforehand, and
/// ``HiveLogging/setUp(identity:target:level:environment:mayBootstrap:)`` picks stderr then. Any other
/// failure is swallowed and the entry goes to stderr as a plain line instead, after a
/// one-time notice per process: nothing crashes. Entries are sent by a thread of their own
/// through a bounded queue, so a journald that stops reading never blocks the caller;
/// entries that do not fit are counted and reported.
public struct JournalLogHandler: LogHandler {
    /// The `SYSLOG_IDENTIFIER` of every entry: the daemon's name.
    public let identifier: String
    /// Metadata added to every entry of this logger.
    public var metadata: Logger.Metadata = [:]
    /// Extra metadata read at every log call (e.g. from a task-local).
    public var metadataProvider: Logger.MetadataProvider?
    private var ownLevel: Logger.Level?
    private let sharedLevel: LogLevelStore?

    /// Makes a handler at a fixed level.
    ///
    /// - Parameters:
    ///   - identifier: the `SYSLOG_IDENTIFIER`, normally the daemon's name
    ///     (``DaemonIdentity/logLabel``).
    ///   - level: the lowest level written.
    ///   - metadataProvider: extra metadata read at every log call.
    public init(
        identifier: String,
        level: Logger.Level = .info,
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.init(identifier: identifier, ownLevel: level, sharedLevel: nil, metadataProvider: metadataProvider)
    }

    init(
        identifier: String,
        ownLevel: Logger.Level?,
        sharedLevel: LogLevelStore?,
        metadataProvider: Logger.MetadataProvider?
    ) {
        self.identifier = identifier
        self.ownLevel = ownLevel
        self.sharedLevel = sharedLevel
        self.metadataProvider = metadataProvider
    }

    /// The lowest level written: this logger's own once set, else the process-wide level
    /// of ``HiveLogging/level``.
    public var logLevel: Logger.Level {
        get { ownLevel ?? sharedLevel?.level ?? .info }
        set { ownLevel = newValue }
    }

    /// One metadata value of this logger.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Where journald listens for native entries, the path libsystemd sends to.
    public static let socketPath = "/run/systemd/journal/socket"

    /// Whether journald's socket exists (`access(2)`), i.e. whether entries can arrive.
    public static func journalAvailable(socketPath: String = socketPath) -> Bool {
        access(socketPath, F_OK) == 0
    }

    /// Queues `event` for the journal (a writer thread of its own: never blocks), or for stderr if
    /// journald refuses it.
    public func log(event: LogEvent) {
        let merged = LogMetadataMerge.merged(metadata, provider: metadataProvider, call: event.metadata)
        let fields = Self.fields(for: event, metadata: merged, identifier: identifier)
        JournalWriter.write(JournalWriter.Entry(
            assignments: fields.map(\.assignment), event: event, metadata: merged, identifier: identifier))
    }
}
