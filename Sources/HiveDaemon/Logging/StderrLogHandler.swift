import HiveKit
import Logging

/// A swift-log handler that writes one plain line per call to stderr.
///
/// A line reads `2026-11-23T09:40:44.123Z warning [store] init: message key=value`: the UTC
/// time (unless ``timestamps`` is off), the level, the `module` metadata in brackets and the
/// `event` metadata before a colon (each left out when unset), the message, then the other
/// metadata sorted by key, quoted when needed. Each line is written with a single
/// `write(2)`, so lines from several threads do not interleave.
public struct StderrLogHandler: LogHandler {
    /// Whether lines start with a UTC timestamp. Off is useful where something else adds
    /// one (a terminal multiplexer, a log collector).
    public var timestamps: Bool
    /// Whether the level is coloured (ANSI escapes): HiveDaemon turns it on only when
    /// stderr is a terminal and `NO_COLOR` is unset or empty (`TERM=dumb` too leaves it off).
    public var colors = false
    /// Metadata added to every line of this logger.
    public var metadata: Logger.Metadata = [:]
    /// Extra metadata read at every log call (e.g. from a task-local).
    public var metadataProvider: Logger.MetadataProvider?
    private var ownLevel: Logger.Level?
    private let sharedLevel: LogLevelStore?

    /// Makes a handler at a fixed level.
    ///
    /// - Parameters:
    ///   - level: the lowest level written.
    ///   - timestamps: whether lines start with a UTC timestamp.
    ///   - metadataProvider: extra metadata read at every log call.
    public init(level: Logger.Level = .info, timestamps: Bool = true, metadataProvider: Logger.MetadataProvider? = nil) {
        self.init(ownLevel: level, sharedLevel: nil, timestamps: timestamps, metadataProvider: metadataProvider)
    }

    init(ownLevel: Logger.Level?, sharedLevel: LogLevelStore?, timestamps: Bool, metadataProvider: Logger.MetadataProvider?) {
        self.ownLevel = ownLevel
        self.sharedLevel = sharedLevel
        self.timestamps = timestamps
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

    /// Writes `event` as one line on stderr.
    public func log(event: LogEvent) {
        let merged = LogMetadataMerge.merged(metadata, provider: metadataProvider, call: event.metadata)
        StderrWriter.write(Self.formatLine(
            timestamp: timestamps ? Self.timestamp() : nil, level: event.level,
            message: event.message.description, metadata: merged, error: event.error, colors: colors))
    }
}
