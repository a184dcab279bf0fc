import HiveKit
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Synchronization

/// Sets up swift-log for a daemon: the journal or stderr, at a level a reload can change,
/// in cooperation with a process that bootstrapped swift-log itself.
///
/// ``setUp(identity:target:level:environment:policy:)`` decides once per process, before
/// the daemon's first log line; the daemon then makes its loggers with the ``LogSetup``
/// it returns.
public enum HiveLogging {
    /// The configuration names of the levels, lowest first:
    /// `trace`, `debug`, `info`, `notice`, `warning`, `error`, `critical`.
    public static let levelNames = Logger.Level.allCases.map(\.rawValue)

    private static let sharedLevel = LogLevelStore(.info)
    /// What the first call of ``setUp(identity:target:level:environment:policy:)`` chose.
    private static let chosen = Mutex<LogSetup?>(nil)

    /// Chooses where the daemon's logs go and sets the shared ``level``; never traps.
    ///
    /// - `policy` ``DaemonLogging/bootstrap``: swift-log is bootstrapped with HiveDaemon's
    ///   handlers (``LogSetup/installed(_:)``) unless the process bootstrapped it already
    ///   (``LogSetup/external``).
    /// - ``DaemonLogging/cooperate``: the process's handler if it bootstrapped one
    ///   (``LogSetup/external``), else HiveDaemon's handlers for the daemon's loggers alone
    ///   (``LogSetup/own(_:)``); `LoggingSystem.bootstrap` is never called.
    ///
    /// The choice holds for the process: a later call (a second daemon, a restart in the
    /// same process) only sets the level and returns the first choice. When the target is
    /// the journal but journald's socket does not exist, logs go to stderr and the target
    /// says ``LogTarget/stderr`` (libsystemd would drop every entry without a word):
    /// compare with what was asked to warn about it.
    ///
    /// - Parameters:
    ///   - identity: the daemon's name is the journal's `SYSLOG_IDENTIFIER`.
    ///   - target: `auto` picks the journal when stderr is systemd's journal stream
    ///     (see ``LogTarget/resolved(in:descriptor:)``), else stderr.
    ///   - level: the lowest level written, until ``level`` is changed.
    ///   - environment: the variables captured at the top of `main`.
    ///   - policy: who owns swift-log's bootstrap.
    @discardableResult
    public static func setUp(
        identity: DaemonIdentity,
        target: LogTarget = .auto,
        level: Logger.Level = .info,
        environment: SystemdEnvironment,
        policy: DaemonLogging
    ) -> LogSetup {
        sharedLevel.level = level
        return chosen.withLock { chosen in
            if let chosen { return chosen }
            let resolved = effective(target.resolved(in: environment), journalAvailable: JournalLogHandler.journalAvailable())
            let setup = choose(policy: policy, processBootstrapped: processBootstrappedItsOwn(), target: resolved)
            if case .installed(let target) = setup {
                let identifier = identity.logLabel
                LoggingSystem.bootstrap { _ in makeHandler(target: target, identifier: identifier) }
            }
            chosen = setup
            return setup
        }
    }

    /// What ``setUp(identity:target:level:environment:policy:)`` decides: the process's
    /// own handler if it bootstrapped one, else HiveDaemon's handlers for `target`,
    /// installed process-wide only under ``DaemonLogging/bootstrap``.
    static func choose(policy: DaemonLogging, processBootstrapped: Bool, target: LogTarget) -> LogSetup {
        if processBootstrapped { return .external }
        return policy == .bootstrap ? .installed(target) : .own(target)
    }

    /// Whether swift-log was bootstrapped with a handler other than its default (a
    /// `StreamLogHandler`), which is all a process can tell about it.
    static func processBootstrappedItsOwn() -> Bool {
        !(Logger(label: "HiveDaemon").handler is StreamLogHandler)
    }

    /// The journal when asked for and reachable, else stderr.
    static func effective(_ resolved: LogTarget, journalAvailable: Bool) -> LogTarget {
        resolved == .journal && !journalAvailable ? .stderr : resolved
    }

    /// The level of every logger of the daemon (HiveDaemon's handlers, or the process's
    /// wrapped) that has not set its own `logLevel`. Set it on reload to apply a new `log.level` at once.
    public static var level: Logger.Level {
        get { sharedLevel.level }
        set { sharedLevel.level = newValue }
    }

    /// A handler for `target` that follows ``level``; `auto` is resolved first against
    /// `environment` (or, when nil, the live environment's `JOURNAL_STREAM`). What
    /// ``setUp(identity:target:level:environment:policy:)`` installs; useful to build a
    /// `Logger` without bootstrapping.
    ///
    /// - Parameter identifier: the journal's `SYSLOG_IDENTIFIER` (the daemon's name).
    public static func makeHandler(
        target: LogTarget, identifier: String, environment: SystemdEnvironment? = nil
    ) -> any LogHandler {
        let resolved = target == .auto ? target.resolved(in: environment ?? .capture()) : target
        return switch resolved {
        case .journal:
            JournalLogHandler(identifier: identifier, ownLevel: nil, sharedLevel: sharedLevel, metadataProvider: nil)
        case .stderr, .auto:
            stderrHandler()
        }
    }

    /// Whether stderr lines are coloured, decided once: a terminal, `NO_COLOR` unset or
    /// empty, `TERM` not `dumb`.
    private static let colors = StderrLogHandler.wantsColors(environment: Dictionary(
        uniqueKeysWithValues: ["NO_COLOR", "TERM"].compactMap { name in getenv(name).map { (name, String(cString: $0)) } }))

    private static func stderrHandler() -> StderrLogHandler {
        var handler = StderrLogHandler(ownLevel: nil, sharedLevel: sharedLevel, timestamps: true, metadataProvider: nil)
        handler.colors = colors
        return handler
    }

    /// Waits until the log lines and journal entries queued so far were written, or until
    /// `deadline` (`CLOCK_MONOTONIC` nanoseconds); returns whether they all were.
    @discardableResult
    public static func flush(until deadline: UInt64) -> Bool {
        let stderr = StderrWriter.flush(until: deadline)
        return JournalWriter.shared.flush(until: deadline) && stderr
    }

    /// The level a configuration names (`trace` … `critical`, any case, surrounding
    /// spaces ignored; `warn` is taken for `warning`), or nil.
    public static func parseLevel(_ name: String) -> Logger.Level? {
        let lower = name.trimmingSpaces.unicodeScalars.map {
            $0.value >= 0x41 && $0.value <= 0x5A ? Unicode.Scalar($0.value + 32)! : $0
        }
        let trimmed = String(String.UnicodeScalarView(lower))
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
