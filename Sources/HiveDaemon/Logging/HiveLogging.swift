import HiveKit
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Synchronization

/// Sets up swift-log for a daemon: the journal or stderr, at a level a reload can change,
/// or the handler of a process that owns swift-log itself.
///
/// The daemon decides once per process, before its first log line (`setUp`); a program
/// with a `main` of its own that wants HiveDaemon's handlers bootstraps swift-log with
/// ``makeHandler(target:identifier:environment:)``.
public enum HiveLogging {
    /// The configuration names of the levels, lowest first:
    /// `trace`, `debug`, `info`, `notice`, `warning`, `error`, `critical`.
    static let levelNames = Logger.Level.allCases.map(\.rawValue)

    private static let sharedLevel = LogLevelStore(.info)
    /// What the first call of ``setUp(identity:target:level:environment:mayBootstrap:)`` chose.
    private static let chosen = Mutex<LogSetup?>(nil)

    /// Chooses where the daemon's logs go and sets the shared ``level``; never traps.
    ///
    /// swift-log allows one `LoggingSystem.bootstrap` per process (a second one traps) and
    /// cannot be asked whether it happened, so who may call it is decided by who started
    /// the process:
    ///
    /// - `mayBootstrap` true, when HiveDaemon's code is the process's entry point
    ///   (``DaemonProgram``'s own `main`, which runs before any code of the program): swift-log
    ///   is bootstrapped with HiveDaemon's handlers for `target` (``LogSetup/installed(_:)``),
    ///   so every `Logger(label:)` of the process uses them. Should a handler other than
    ///   swift-log's default `StreamLogHandler` be in place all the same (bootstrapped by a
    ///   static initializer the catalog ran), it is kept (``LogSetup/external``).
    /// - `mayBootstrap` false, when the program has a `main` of its own (one that calls
    ///   ``DaemonCommand/main()`` or ``HiveDaemon/main(_:)``, or runs a `DaemonService`):
    ///   the process owns swift-log and `LoggingSystem.bootstrap` is never called. The
    ///   daemon's loggers use the process's handler, whatever it is (``LogSetup/external``):
    ///   the one it bootstrapped, or swift-log's default if it bootstrapped none.
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
    ///   - mayBootstrap: whether the daemon's code is the process's entry point (above).
    @discardableResult
    static func setUp(
        identity: DaemonIdentity,
        target: LogTarget = .auto,
        level: Logger.Level = .info,
        environment: SystemdEnvironment,
        mayBootstrap: Bool
    ) -> LogSetup {
        sharedLevel.level = level
        return chosen.withLock { chosen in
            if let chosen { return chosen }
            let resolved = effective(target.resolved(in: environment), journalAvailable: DaemonLogHandler.journalAvailable())
            let setup = choose(
                mayBootstrap: mayBootstrap, handlerInPlace: mayBootstrap && processBootstrappedItsOwn(), target: resolved)
            if case .installed(let target) = setup {
                let identifier = identity.logLabel
                LoggingSystem.bootstrap { _ in makeHandler(target: target, identifier: identifier) }
            }
            chosen = setup
            return setup
        }
    }

    /// What ``setUp(identity:target:level:environment:mayBootstrap:)`` decides: HiveDaemon's
    /// handlers for `target`, installed, only when it may bootstrap swift-log and finds no
    /// handler of the process's own in place; else the process's handler.
    static func choose(mayBootstrap: Bool, handlerInPlace: Bool, target: LogTarget) -> LogSetup {
        mayBootstrap && !handlerInPlace ? .installed(target) : .external
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
    static var level: Logger.Level {
        get { sharedLevel.level }
        set { sharedLevel.level = newValue }
    }

    /// A handler for `target` at the configuration's `log.level` (a reload changes it);
    /// `auto` is resolved first against `environment` (or, when nil, the live
    /// environment's `JOURNAL_STREAM`): the journal when stderr is systemd's journal
    /// stream, else stderr. What the daemon installs; a program with a `main` of its own
    /// can bootstrap swift-log with it to log as hived does.
    ///
    /// - Parameters:
    ///   - target: where lines go: `auto`, `journal` or `stderr`.
    ///   - identifier: the journal's `SYSLOG_IDENTIFIER` (the daemon's name).
    ///   - environment: the systemd variables `auto` decides by; `nil` reads them now.
    public static func makeHandler(
        target: LogTarget, identifier: String, environment: SystemdEnvironment? = nil
    ) -> any LogHandler {
        let resolved = target == .auto ? target.resolved(in: environment ?? .capture()) : target
        return switch resolved {
        case .journal: DaemonLogHandler(.journal(identifier: identifier), sharedLevel: sharedLevel)
        case .stderr, .auto: DaemonLogHandler(.stderr(colors: colors), sharedLevel: sharedLevel)
        }
    }

    /// Whether stderr lines are coloured, decided once: a terminal, `NO_COLOR` unset or
    /// empty, `TERM` not `dumb`.
    private static let colors = DaemonLogHandler.wantsColors(environment: Dictionary(
        uniqueKeysWithValues: ["NO_COLOR", "TERM"].compactMap { name in getenv(name).map { (name, String(cString: $0)) } }))

    /// Waits until the log lines and journal entries queued so far were written, or until
    /// `deadline` (`CLOCK_MONOTONIC` nanoseconds); returns whether they all were.
    @discardableResult
    static func flush(until deadline: UInt64) -> Bool {
        let stderr = StderrWriter.flush(until: deadline)
        return JournalWriter.shared.flush(until: deadline) && stderr
    }

    /// The level a configuration names (`trace` … `critical`, any case, surrounding
    /// spaces ignored; `warn` is taken for `warning`), or nil.
    static func parseLevel(_ name: String) -> Logger.Level? {
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
