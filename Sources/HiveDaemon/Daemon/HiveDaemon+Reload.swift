import CLinux
import HiveKit

extension HiveDaemon {
    /// Reloads (see ``apply(reloadOf:)``), then gives the memory the new file's parsing
    /// used back to the system (`malloc_trim`): a large or hostile file must not leave the
    /// daemon bigger than it was.
    @discardableResult
    func reload(_ hive: Hive) async -> ReloadOutcome {
        let outcome = await apply(reloadOf: hive)
        malloc_trim(0)
        return outcome
    }

    /// Reloads, all or nothing: `RELOADING=1` first, then read and validate the whole
    /// file, then ``Hive/reload(to:catalog:refusingToRemoveAll:)`` (prepare, then commit or
    /// abort); the daemon's own settings (signals, budgets, log level…) change only with a
    /// committed reload. `READY=1` follows either way, with `STATUS=` saying what changed
    /// or, when the reload failed, the error (file:line, module, hook, cause) while the
    /// previous configuration keeps running. Once `STOPPING=1` was sent, a reload still
    /// queued is skipped. A file that enables no module while modules run is refused in the
    /// reload's build phase unless it says `modules: []`.
    private func apply(reloadOf hive: Hive) async -> ReloadOutcome {
        let stopping = current.withLock { current in
            if !current.sentStopping { current.isReloading = true }
            return current.sentStopping
        }
        guard !stopping else {
            logger.info("reload skipped: stopping")
            return .skipped
        }
        defer { current.withLock { $0.isReloading = false } }
        let begin = MonotonicClock.nanoseconds()
        notifier.send(.reloading(status: "reloading configuration"))
        let configuration: DaemonConfiguration
        do {
            configuration = try readConfiguration()
        } catch {
            rejectReload(error)
            return .invalid(error)
        }
        // A file that enables no module is refused in the reload's build phase, unless it
        // says `modules: []`.
        let refusal = configuration.declaresNoModules ? nil : HiveError(
            .invalidConfiguration,
            "\(configuration.path ?? "the configuration"): enables no module, which would remove every running module; "
                + "write `modules: []` if that is meant (a file caught half-written looks the same)")
        let summary: ReloadSummary
        do {
            summary = try await hive.reload(to: configuration.modules, catalog: options.catalog, refusingToRemoveAll: refusal)
        } catch {
            rejectReload(error)
            return .failed(error)
        }
        if let failure = summary.failure {
            rejectReload(failure)
            let isInFile = failure.error.location != nil || failure.error.code == .invalidConfiguration
            return failure.phase == .build && isInFile ? .invalid(failure.error) : .failed(failure.error)
        }
        var changes: [String] = []
        if hive.defaultBudget != configuration.budgets.event { changes.append("event budget \(configuration.budgets.event.shortDescription)") }
        if HiveLogging.level != configuration.log.level { changes.append("log level \(configuration.log.level)") }
        hive.defaultBudget = configuration.budgets.event
        HiveLogging.level = configuration.log.level
        let (oldTarget, oldServices, restartOnly, oldControl) = current.withLock { current in
            if current.signals != configuration.signals { changes.append("signal map") }
            if current.stopBudget != configuration.budgets.stop {
                changes.append("stop budget \(configuration.budgets.stop.shortDescription)")
            }
            current.signals = configuration.signals
            current.stopBudget = configuration.budgets.stop
            let restartOnly = applySystemSettings(configuration, to: &current, changes: &changes)
            return (current.logTarget, current.services, restartOnly, current.control)
        }
        for (what, changed) in [
            ("environment", configuration.environment != hive.environment),
            ("log.target", configuration.log.target != oldTarget),
            ("services", configuration.services.map(\.withoutLocation) != oldServices.map(\.withoutLocation)),
            ("control", configuration.control != oldControl),
        ] + restartOnly where changed {
            logger.warning("\(what) changed: takes effect at the next start")
        }
        let took = Self.milliseconds(.nanoseconds(Int64(clamping: MonotonicClock.nanoseconds() &- begin)))
        var status = "reloaded in \(took): \(summary)"
        if !changes.isEmpty { status += "; new \(changes.joined(separator: ", "))" }
        if hive.phase == .suspended {
            let (signal, sleep) = current.withLock { ($0.suspendedBySignal, $0.suspendedBySleep) }
            status += " (suspended: \(Self.suspensionNote(signal: signal, sleep: sleep)))"
        }
        logger.info("\(status)")
        notifier.send(.ready(status: status))
        return .applied(summary)
    }

    /// Applies what a reload may change at once in `sleep:` and `memory_pressure:` (the
    /// sleep budget, the warning interval) and returns the settings that change only at
    /// the next start, each with whether it changed.
    private func applySystemSettings(
        _ configuration: DaemonConfiguration, to current: inout Current, changes: inout [String]
    ) -> [(String, Bool)] {
        let (sleep, pressure) = (configuration.sleep, configuration.memoryPressure)
        if current.sleep.budget != sleep.budget {
            changes.append("sleep budget \(sleep.budget.shortDescription)")
            current.sleepWatch?.setBudget(sleep.budget)
        }
        if current.memoryPressure.interval != pressure.interval {
            changes.append("memory pressure interval \(pressure.interval.shortDescription)")
            current.pressureWatch?.setInterval(pressure.interval)
        }
        let restartOnly = [
            ("sleep.follow", current.sleep.follow != sleep.follow),
            ("memory_pressure.watch", current.memoryPressure.watch != pressure.watch),
            ("memory_pressure.threshold", current.memoryPressure.threshold != pressure.threshold),
            ("memory_pressure.window", current.memoryPressure.window != pressure.window),
        ]
        current.sleep.budget = sleep.budget
        current.memoryPressure.interval = pressure.interval
        return restartOnly
    }

    /// Logs and reports (`READY=1` with `STATUS=`) a reload that changed nothing: an
    /// invalid file, or a ``ReloadFailure`` (one whose replaced modules are gone says so).
    private func rejectReload(_ error: any Error) {
        let status: String
        if let failure = error as? ReloadFailure, !failure.lost.isEmpty {
            status = "reload failed: \(failure); the rest of the previous configuration is still running"
        } else {
            status = "reload failed, previous configuration still running: \(error)"
        }
        logger.error("\(status)")
        notifier.send(.ready(status: status))
    }
}

/// How a reload ended.
enum ReloadOutcome: Sendable {
    /// The new configuration runs.
    case applied(ReloadSummary)
    /// The file is invalid; nothing changed.
    case invalid(HiveError)
    /// Applying the configuration failed; the previous one keeps running.
    case failed(HiveError)
    /// A stop had begun; nothing was read.
    case skipped
}
