import HiveKit
import Synchronization

extension HiveDaemon {
    /// Feeds systemd's watchdog at half its interval, from the process's ``DeadlineTimer``,
    /// but only while no hook runs past its budget and no configuration read for a reload
    /// takes longer than the event budget. Both are marked by the hive's stall timer at the
    /// instant the budget runs out (and logged then, by module and event), so the pings stop
    /// at that same instant and systemd restarts a truly hung daemon. Returns the timer's id
    /// (cancel it at the stop); `nil` when the watchdog is off.
    func startWatchdog(_ hive: Hive) -> UInt64? {
        let settings: WatchdogSettings?
        do {
            settings = try WatchdogSettings.current()
        } catch {
            logger.warning("watchdog off: \(error)")
            return nil
        }
        guard let settings else { return nil }
        if settings.interval < WatchdogSettings.minimumInterval {
            let floor = WatchdogSettings.minimumInterval.shortDescription
            logger.warning(
                "WATCHDOG_USEC asks for a watchdog of \(settings.interval.shortDescription), below the floor of \(floor): pinging as for \(floor)")
        }
        let wasHealthy = Atomic<Bool>(true)
        return DeadlineTimer.shared.run(every: settings.clamped.pingInterval, after: .zero) { [self] in
            let stalls = hive.stalledHandlers()
            let reading = readingStalled.load(ordering: .relaxed)
            let isHealthy = stalls.isEmpty && !reading
            let wasHealthy = wasHealthy.exchange(isHealthy, ordering: .relaxed)
            if isHealthy {
                notifier.send(.watchdog)
                if !wasHealthy { logger.notice("event delivery healthy again; watchdog pings resumed") }
            } else if wasHealthy {
                let what = stalls.map(\.description) + (reading ? ["reading the configuration"] : [])
                logger.error("watchdog pings withheld: \(what.joined(separator: "; "))")
            }
        }
    }
}
