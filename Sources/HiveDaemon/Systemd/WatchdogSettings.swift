import HiveKit
/// The systemd watchdog as configured for this process: its interval and how often to ping.
///
/// Only timing: the daemon decides whether it is healthy enough to ping (a ping from a
/// free-running timer proves nothing). Send ``NotifyMessage/watchdog`` every
/// ``pingInterval`` while healthy; systemd kills the service after ``interval`` without one.
struct WatchdogSettings: Sendable, Hashable, CustomStringConvertible {
    /// `WATCHDOG_USEC`: how long systemd waits for a ping before it acts (`WatchdogSec=`).
    let interval: Duration

    /// Makes settings for a watchdog of `interval`.
    init(interval: Duration) {
        self.interval = interval
    }

    /// Makes settings for a watchdog of `microseconds`, as `WATCHDOG_USEC` gives it.
    init(microseconds: UInt64) {
        self.init(interval: .microseconds(Int64(clamping: microseconds)))
    }

    /// The shortest interval honoured (10 ms): a shorter `WATCHDOG_USEC` (`1` would mean
    /// a ping every half microsecond, a core spent on pings) is raised to it.
    static let minimumInterval: Duration = .milliseconds(10)

    /// These settings with ``interval`` raised to ``minimumInterval`` if below it.
    var clamped: WatchdogSettings {
        interval < Self.minimumInterval ? WatchdogSettings(interval: Self.minimumInterval) : self
    }

    /// How often to ping: half of ``interval``, as sd_watchdog_enabled(3) advises.
    var pingInterval: Duration { interval / 2 }

    /// The watchdog for this process, or nil when it is off.
    ///
    /// On when `WATCHDOG_USEC` is set and `WATCHDOG_PID`, if set, is this process's pid.
    /// Reads the live environment through `sd_watchdog_enabled(0, &usec)`, which leaves the
    /// variables set.
    ///
    /// - Throws: ``SystemdError`` (`EINVAL`) when the variables are malformed.
    static func current() throws(SystemdError) -> WatchdogSettings? {
        let (result, microseconds) = SystemdCalls.watchdogEnabled()
        guard try SystemdError.check(result, "sd_watchdog_enabled") > 0 else { return nil }
        return WatchdogSettings(microseconds: microseconds)
    }

    /// `watchdog 10s, ping every 5s`.
    var description: String { "watchdog \(interval), ping every \(pingInterval)" }
}
