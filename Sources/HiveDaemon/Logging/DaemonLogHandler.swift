import HiveKit
import Logging

/// HiveDaemon's swift-log handler: one plain line per call on stderr, or one structured
/// entry per call in journald. Either way the call only queues it: a writer thread of its
/// own writes it (``StderrWriter``, ``JournalWriter``), so a reader that stalls never
/// blocks the caller, and what does not fit is counted and reported.
///
/// **stderr.** A line reads `2026-11-23T09:40:44.123Z warning [store] init: message
/// key=value`: the UTC time, the level, the `module` metadata in brackets and the `event`
/// metadata before a colon (each left out when unset), the message, then the other
/// metadata sorted by key, quoted when needed (``formatLine(timestamp:level:message:metadata:error:colors:)``).
/// Each line is written with a single `write(2)`, so lines from several threads do not
/// interleave.
///
/// **The journal.** Each entry carries `MESSAGE` (the message after `[module] event: `, as
/// on stderr), `PRIORITY` (syslog 0–7), `SYSLOG_IDENTIFIER`, `CODE_FILE`, `CODE_LINE`,
/// `CODE_FUNC`, `HIVE_MODULE` and `HIVE_EVENT` (from the metadata keys `module` and
/// `event`), and every other metadata key as `HIVE_<KEY>` (see
/// ``JournalField/metadataName(forKey:)``); ``fields(for:metadata:identifier:)`` builds
/// the list without touching journald. Where no journald runs at all, `sd_journal_sendv`
/// drops entries and reports success (it ignores `ENOENT` on purpose);
/// ``journalAvailable(socketPath:)`` tells beforehand, and ``HiveLogging`` picks stderr
/// then. An entry journald refuses goes to stderr as a plain line instead, after a
/// one-time notice per process (``JournalFallback``): nothing crashes.
struct DaemonLogHandler: LogHandler {
    /// Where a handler writes.
    enum Output: Sendable, Hashable {
        /// Plain lines on stderr; the level coloured (ANSI escapes) with `colors`, which
        /// HiveDaemon turns on only when stderr is a terminal and `NO_COLOR` is unset or
        /// empty (``wantsColors(environment:isTerminal:)``).
        case stderr(colors: Bool)
        /// Entries in journald, each with `identifier` as its `SYSLOG_IDENTIFIER` (the
        /// daemon's name, ``DaemonIdentity/logLabel``).
        case journal(identifier: String)
    }

    /// Where lines go.
    let output: Output
    /// Metadata added to every line of this logger.
    var metadata: Logger.Metadata = [:]
    /// Extra metadata read at every log call (e.g. from a task-local).
    var metadataProvider: Logger.MetadataProvider?
    private var ownLevel: Logger.Level?
    private let sharedLevel: LogLevelStore

    /// A handler writing to `output` at `sharedLevel`, until a logger sets its own level.
    init(_ output: Output, sharedLevel: LogLevelStore) {
        self.output = output
        self.sharedLevel = sharedLevel
    }

    /// The lowest level written: this logger's own once set, else the process-wide level
    /// of ``HiveLogging/level``.
    var logLevel: Logger.Level {
        get { ownLevel ?? sharedLevel.level }
        set { ownLevel = newValue }
    }

    /// One metadata value of this logger.
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Queues `event` as one line for stderr, or as one entry for the journal (or for
    /// stderr if journald refuses it); never blocks.
    func log(event: LogEvent) {
        let merged = LogMetadataMerge.merged(metadata, provider: metadataProvider, call: event.metadata)
        switch output {
        case .stderr(let colors):
            StderrWriter.write(Self.formatLine(
                timestamp: Self.timestamp(), level: event.level, message: event.message.description,
                metadata: merged, error: event.error, colors: colors))
        case .journal(let identifier):
            let fields = Self.fields(for: event, metadata: merged, identifier: identifier)
            JournalWriter.write(JournalWriter.Entry(
                assignments: fields.map(\.assignment), event: event, metadata: merged, identifier: identifier))
        }
    }
}
