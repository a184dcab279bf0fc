extension HiveDaemon {
    /// Feeds systemd's watchdog at half its interval, but only while no hook runs past
    /// its budget: a stalled handler stops the pings (and is logged by module and event)
    /// so systemd restarts a truly hung daemon. `nil` when the watchdog is off.
    func startWatchdog(_ hive: Hive) -> Task<Void, Never>? {
        let settings: WatchdogSettings?
        do {
            settings = try WatchdogSettings.current()
        } catch {
            logger.warning("watchdog off: \(error)")
            return nil
        }
        guard let interval = settings?.pingInterval else { return nil }
        return Task { [notifier, logger] in
            var wasHealthy = true
            while !Task.isCancelled {
                let stalls = hive.stalledHandlers()
                if stalls.isEmpty {
                    notifier.send(.watchdog)
                    if !wasHealthy { logger.notice("event delivery healthy again; watchdog pings resumed") }
                } else if wasHealthy {
                    for stall in stalls {
                        logger.error(
                            "watchdog pings withheld: \(stall)",
                            metadata: ["module": "\(stall.module)", "event": "\(stall.event)"])
                    }
                }
                wasHealthy = stalls.isEmpty
                try? await Task.sleep(for: interval)
            }
        }
    }
}
