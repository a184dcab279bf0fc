import CLinux
import HiveKit

extension HiveDaemon {
    /// Starts following logind's sleep, as `configuration` says, before setup: the delay
    /// lock is taken while the modules start. The watch submits its requests from a thread
    /// of its own.
    func startSleepWatch(_ configuration: DaemonConfiguration, hive: Hive) {
        guard configuration.sleep.follow else { return }
        let watch = SleepWatch.start(
            who: options.identity.name, budget: configuration.sleep.budget, logger: logger,
            notice: { [self] entering in submit(.request(.sleep(entering: entering))) },
            budgetExpired: { [self] budget in sleepBudgetExpired(budget, hive: hive) })
        state.withLock { $0.sleepWatch = watch }
    }

    /// Starts watching memory pressure, as `configuration` says, once `READY=1` was sent:
    /// no `memoryWarning` reaches modules before `ready`, so the watch's thread need not
    /// cost start-up time. The watch submits its requests from that thread.
    func startPressureWatch(_ configuration: DaemonConfiguration, hive: Hive) {
        guard configuration.memoryPressure.watch else { return }
        let settings = configuration.memoryPressure
        let plan = MemoryPressureSource.plan(
            watch: options.systemd.memoryPressureWatch, write: options.systemd.memoryPressureWrite,
            cgroupPath: MemoryPressureSource.ownCgroupPath(),
            threshold: settings.threshold, window: settings.window)
        let watch = MemoryPressureWatch.start(plan, interval: settings.interval, logger: logger) {
            [self] avg10 in submit(.request(.memoryPressure(someAvg10: avg10)))
        }
        state.withLock { $0.pressureWatch = watch }
    }

    /// Ends both watches (the stop): the delay lock is released, no new request comes.
    func stopSystemWatches() {
        let (sleep, pressure) = state.withLock { ($0.sleepWatch, $0.pressureWatch) }
        sleep?.stop()
        pressure?.stop()
    }

    /// `PrepareForSleep(true)`: `background` (`reason: sleep`), then the delay lock is
    /// released; `PrepareForSleep(false)`: `foreground` unless `SIGTSTP` still asks for
    /// the background (the watch takes a new lock by itself).
    func followSleep(entering: Bool, hive: Hive) async {
        guard entering else {
            logger.info("system resumed from sleep")
            await setSuspended(false, by: .sleep, hive: hive)
            return
        }
        logger.info("system preparing to sleep: background")
        await setSuspended(true, by: .sleep, hive: hive)
        if let held = state.withLock({ $0.sleepWatch })?.releaseLock() {
            logger.info("delay lock released after \(held.shortDescription): the system may sleep")
        }
    }

    /// The sleep budget ran out before `background` finished and the watch released the
    /// lock: names the hooks still running (on the watch's thread).
    func sleepBudgetExpired(_ budget: Duration, hive: Hive) {
        let late = hive.runningHandlers()
        let what = late.isEmpty ? "background had not started yet" : late.map(\.description).joined(separator: "; ")
        logger.warning("sleep budget of \(budget.shortDescription) ran out; delay lock released: \(what)")
    }

    /// Delivers `memoryWarning` (`source: psi`, `some_avg10` when known), then returns
    /// freed heap to the kernel.
    func warnOfMemoryPressure(someAvg10: String?, hive: Hive) async {
        var params = ["source": "psi"]
        if let someAvg10 { params["some_avg10"] = someAvg10 }
        logger.debug("memory pressure: memoryWarning\(someAvg10.map { " (some avg10=\($0))" } ?? "")")
        await deliver(.memoryWarning(params: params), to: hive)
        malloc_trim(0)
    }
}
