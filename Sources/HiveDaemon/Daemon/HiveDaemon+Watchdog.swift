import HiveKit
extension HiveDaemon {
    /// Feeds systemd's watchdog at half its interval, but only while no hook runs past
    /// its budget and no configuration read for a reload takes longer than the event
    /// budget. Both are marked by the hive's stall timer at the instant the budget runs out
    /// (and logged then, by module and event), so the pings stop at that same instant and
    /// systemd restarts a truly hung daemon. `nil` when the watchdog is off.
    func startWatchdog(_ hive: Hive) -> Task<Void, Never>? {
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
        let interval = settings.clamped.pingInterval
        return Task { [self] in
            var wasHealthy = true
            while !Task.isCancelled {
                let stalls = hive.stalledHandlers()
                let reading = readingStalled.load(ordering: .relaxed)
                let isHealthy = stalls.isEmpty && !reading
                if isHealthy {
                    notifier.send(.watchdog)
                    if !wasHealthy { logger.notice("event delivery healthy again; watchdog pings resumed") }
                } else if wasHealthy {
                    let what = stalls.map(\.description) + (reading ? ["reading the configuration"] : [])
                    logger.error("watchdog pings withheld: \(what.joined(separator: "; "))")
                }
                wasHealthy = isHealthy
                try? await Task.sleep(for: interval)
            }
        }
    }
}
