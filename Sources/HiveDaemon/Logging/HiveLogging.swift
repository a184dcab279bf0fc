import HiveKit
import Logging
import Synchronization

/// Sets up swift-log for hived: the journal or stderr, at a level a reload can change.
///
/// Call ``bootstrap(target:level:environment:)`` once at the top of `main`, after
/// ``SystemdEnvironment/capture()`` and before the first `Logger` is made.
public enum HiveLogging {
    /// The label of hived's loggers: `hived`.
    public static let label = "hived"

    /// The configuration names of the levels, lowest first:
    /// `trace`, `debug`, `info`, `notice`, `warning`, `error`, `critical`.
    public static let levelNames = Logger.Level.allCases.map(\.rawValue)

    private static let sharedLevel = LogLevelStore(.info)
    private static let bootstrapped = Mutex<LogTarget?>(nil)

    /// Resolves `target` and bootstraps swift-log with it (`LoggingSystem.bootstrap`).
    ///
    /// swift-log allows one bootstrap per process: a second call changes nothing but the
    /// level and returns the target the first one chose.
    ///
    /// When the target is the journal but journald's socket does not exist, logs go to
    /// stderr and the result says ``LogTarget/stderr``: libsystemd would drop every entry
    /// without a word. Compare the result with what was asked to warn about it.
    ///
    /// - Parameters:
    ///   - target: `auto` picks the journal when stderr is systemd's journal stream
    ///     (see ``LogTarget/resolved(in:descriptor:)``), else stderr.
    ///   - level: the lowest level written, until ``level`` is changed.
    ///   - environment: the variables captured at the top of `main`.
    /// - Returns: where logs go: ``LogTarget/journal`` or ``LogTarget/stderr``, never `auto`.
    @discardableResult
    public static func bootstrap(
        target: LogTarget = .auto,
        level: Logger.Level = .info,
        environment: SystemdEnvironment
    ) -> LogTarget {
        sharedLevel.level = level
        return bootstrapped.withLock { chosen in
            if let chosen { return chosen }
            let resolved = effective(target.resolved(in: environment), journalAvailable: JournalLogHandler.journalAvailable())
            LoggingSystem.bootstrap { _ in makeHandler(target: resolved) }
            chosen = resolved
            return resolved
        }
    }

    /// The journal when asked for and reachable, else stderr.
    static func effective(_ resolved: LogTarget, journalAvailable: Bool) -> LogTarget {
        resolved == .journal && !journalAvailable ? .stderr : resolved
    }

    /// The level of every logger made by the bootstrapped handlers that has not set its own
    /// `logLevel`. Set it on reload to apply a new `log.level` at once.
    public static var level: Logger.Level {
        get { sharedLevel.level }
        set { sharedLevel.level = newValue }
    }

    /// A handler for `target` that follows ``level``; `auto` is resolved first against
    /// `environment` (or, when nil, the live environment's `JOURNAL_STREAM`). What ``bootstrap(target:level:environment:)``
    /// installs; useful to build a `Logger` without bootstrapping.
    public static func makeHandler(target: LogTarget, environment: SystemdEnvironment? = nil) -> any LogHandler {
        let resolved = target == .auto ? target.resolved(in: environment ?? .capture()) : target
        return switch resolved {
        case .journal:
            JournalLogHandler(identifier: label, ownLevel: nil, sharedLevel: sharedLevel, metadataProvider: nil)
        case .stderr, .auto:
            StderrLogHandler(ownLevel: nil, sharedLevel: sharedLevel, timestamps: true, metadataProvider: nil)
        }
    }

    /// The level a configuration names (`trace` … `critical`, any case, surrounding
    /// spaces ignored; `warn` is taken for `warning`), or nil.
    public static func parseLevel(_ name: String) -> Logger.Level? {
        let trimmed = name.trimmingSpaces.lowercased()
        if trimmed == "warn" { return .warning }
        return Logger.Level(rawValue: trimmed)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[first...last])
    }
}
