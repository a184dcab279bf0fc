import HiveKit
/// A daemon's exit statuses, for systemd and scripts.
///
/// The status is the case's `rawValue`, an `Int32` as `exit(_:)` takes it; `Int32(code)`
/// converts too, and `DaemonExitCode(rawValue:)` reads a status back. A usage error on the
/// command line exits 64 (`EX_USAGE`) before any daemon runs, so it has no case.
public enum DaemonExitCode: Int32, Sendable {
    /// 0: a clean stop: every module terminated and tore down.
    case success = 0
    /// 69: a module asked for the stop on a failure (`EX_UNAVAILABLE`): e.g. a
    /// `ServiceModule` whose service ended or failed before `terminate`. The stop itself
    /// was ordered and complete.
    case serviceUnavailable = 69
    /// 70: a module's `setup` or `init` failed; the modules already set up were torn down.
    case moduleFailed = 70
    /// 72: `/proc` is not mounted (`EX_OSFILE`): the daemon did not start, since the Swift
    /// runtime's thread pool (libdispatch) stops the process without it.
    case systemFileMissing = 72
    /// 75: the stop budget ran out before every module tore down.
    case stopBudgetExceeded = 75
    /// 78: the configuration cannot start (`EX_CONFIG`); also `check-config`'s failure.
    case invalidConfiguration = 78
}

extension Int32 {
    /// The exit status `code` stands for: its `rawValue`, e.g. 69 for
    /// ``DaemonExitCode/serviceUnavailable``.
    public init(_ code: DaemonExitCode) {
        self = code.rawValue
    }
}
