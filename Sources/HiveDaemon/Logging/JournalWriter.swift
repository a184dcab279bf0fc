import HiveKit
import Logging

/// hived's journal entries, queued and sent by a thread of their own: `sd_journal_sendv`
/// blocks while journald does not read its socket (libsystemd opens that socket blocking
/// and offers no timeout), so it is called only there, never on an event, signal or stop
/// path.
///
/// The queue holds at most 4,096 entries or 4 MiB; past that, entries are dropped and
/// counted, and a warning entry saying how many (`1,234 log lines dropped (journald was not
/// reading)`) is written where they are missing once journald reads again. An entry
/// journald refuses goes to stderr instead (``JournalFallback``).
enum JournalWriter {
    /// One entry: its fields, and what the stderr fallback needs.
    struct Entry: Sendable {
        let assignments: [String]
        let event: LogEvent
        let metadata: Logger.Metadata
        let identifier: String

        /// What the entry weighs in the queue: its fields' bytes.
        var bytes: Int { assignments.reduce(0) { $0 + $1.utf8.count } }
    }

    static let shared = OutputWriter(
        name: "hive-journal",
        queue: DroppingQueue<Entry>(
            maximumItems: 4096, maximumBytes: 4 << 20, size: \.bytes,
            notice: { count, first in dropNotice(count, identifier: first.identifier) }),
        deliver: { send($0) })

    /// The warning entry written where `count` entries are missing.
    static func dropNotice(_ count: Int, identifier: String) -> Entry {
        let event = LogEvent(
            level: .warning, message: "\(DroppedLines.message(count, reason: "journald was not reading"))",
            metadata: nil, source: nil, file: #fileID, function: #function, line: #line)
        let fields = DaemonLogHandler.fields(for: event, metadata: [:], identifier: identifier)
        return Entry(assignments: fields.map(\.assignment), event: event, metadata: [:], identifier: identifier)
    }

    /// Queues `entry`; never blocks.
    static func write(_ entry: Entry) {
        shared.enqueue(entry)
    }

    /// Sends now, on the writer thread: blocks while journald does not read.
    private static func send(_ entry: Entry) {
        let result = SystemdCalls.journalSend(entry.assignments)
        if result < 0 {
            let error = SystemdError(function: "sd_journal_sendv", errno: -result)
            JournalFallback.shared.write(entry.event, metadata: entry.metadata, identifier: entry.identifier, error: error)
        }
    }
}
