import HiveKit
/// A daemon's exit statuses, for systemd and scripts.
public enum DaemonExitCode: Int32, Sendable {
    /// A clean stop: every module terminated and tore down.
    case success = 0
    /// A module asked for the stop on a failure (`EX_UNAVAILABLE`): e.g. a
    /// `ServiceModule` whose service ended or failed before `terminate`. The stop itself
    /// was ordered and complete.
    case serviceUnavailable = 69
    /// A module's `setup` or `init` failed; the modules already set up were torn down.
    case moduleFailed = 70
    /// `/proc` is not mounted (`EX_OSFILE`): the daemon did not start, since the Swift
    /// runtime's thread pool (libdispatch) stops the process without it.
    case systemFileMissing = 72
    /// The stop budget ran out before every module tore down.
    case stopBudgetExceeded = 75
    /// The configuration cannot start (`EX_CONFIG`); also `check-config`'s failure.
    case invalidConfiguration = 78
}
