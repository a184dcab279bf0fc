import HiveKit
/// What the daemon's event loop is asked to do, in arrival order.
enum DaemonRequest: Sendable, Equatable {
    /// Re-read the configuration and apply it (`SIGHUP`).
    case reload
    /// Deliver `background` (`SIGTSTP`), unless already in the background.
    case suspend
    /// Deliver `foreground` (`SIGCONT`), unless the system sleeps.
    case resume
    /// logind's `PrepareForSleep`: `background` then release the delay lock (`true`), or
    /// `foreground` unless `SIGTSTP` holds the background (`false`).
    case sleep(entering: Bool)
    /// Memory pressure: deliver `memoryWarning` (`source: psi`), then trim the heap.
    case memoryPressure(someAvg10: String?)
    /// Deliver an event from the signal map (`SIGUSR1` → `custom:rotate`).
    case event(HiveEvent, signal: Int32)
    /// Stop: `terminate`, `teardown`, exit (`SIGTERM`, `SIGINT`; signal 0 for a stop
    /// requested otherwise, see ``HiveDaemon/requestStop(_:failure:)``).
    case stop(signal: Int32)
    /// A control-socket call that needs the event loop (`Reload`, `SendEvent`).
    case control(ControlRequest)
}
