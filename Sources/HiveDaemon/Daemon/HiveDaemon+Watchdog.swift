import HiveKit
extension HiveDaemon {
    /// Feeds systemd's watchdog at half its interval, but only while no hook runs past
    /// its budget, and no configuration read for a reload takes longer than the event
    /// budget: a stall stops the pings (and is logged by module and event) so systemd
    /// restarts a truly hung daemon. `nil` when the watchdog is off.
    func startWatchdog(_ hive: Hive) -> Task<Void, Never>? {
        let settings: WatchdogSettings?
        do {
            settings = try WatchdogSettings.current()
        } catch {
            logger.warning("watchdog off: \(error)")
            return nil
        }
        guard let interval = settings?.pingInterval else { return nil }
        return Task { [self] in
            var wasHealthy = true
            while !Task.isCancelled {
                let stalls = hive.stalledHandlers()
                let reading = stalls.isEmpty ? readingStall(budget: hive.defaultBudget) : nil
                let isHealthy = stalls.isEmpty && reading == nil
                if isHealthy {
                    notifier.send(.watchdog)
                    if !wasHealthy { logger.notice("event delivery healthy again; watchdog pings resumed") }
                } else if wasHealthy {
                    for stall in stalls {
                        logger.error(
                            "watchdog pings withheld: \(stall)",
                            metadata: ["module": "\(stall.module)", "event": "\(stall.event)"])
                    }
                    if let reading { logger.error("watchdog pings withheld: \(reading)") }
                }
                wasHealthy = isHealthy
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// What the daemon's own work holds up, if reading a configuration took longer than
    /// `budget`.
    private func readingStall(budget: Duration) -> String? {
        let since = readingSince.load(ordering: .relaxed)
        let now = MonotonicClock.nanoseconds()
        guard since != 0, now > since, now - since > budget.nanosecondsClamped else { return nil }
        let elapsed = Duration.nanoseconds(Int64(clamping: now - since))
        return "reading the configuration for a reload has taken \(elapsed.shortDescription) (budget \(budget.shortDescription))"
    }
}
