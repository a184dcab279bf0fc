import HiveKit
/// What the daemon's event loop is asked to do, in arrival order.
enum DaemonRequest: Sendable, Equatable {
    /// Re-read the configuration and apply it (`SIGHUP`).
    case reload
    /// Deliver `background` (`SIGTSTP`).
    case suspend
    /// Deliver `foreground` (`SIGCONT`).
    case resume
    /// Deliver an event from the signal map (`SIGUSR1` → `custom:rotate`).
    case event(HiveEvent, signal: Int32)
    /// Stop: `terminate`, `teardown`, exit (`SIGTERM`, `SIGINT`).
    case stop(signal: Int32)
}
