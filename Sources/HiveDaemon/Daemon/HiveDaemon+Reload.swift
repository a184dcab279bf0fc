import CLinux
import HiveKit

extension HiveDaemon {
    /// Reloading (the lifecycle's reloading phase): reloads (see ``apply(reloadOf:)``),
    /// records it, answers `callers` (the control `Reload` calls that asked for this reload
    /// or joined it while it waited), gives the memory the new file's parsing used back to
    /// the system (`malloc_trim`: a large or hostile file must not leave the daemon bigger
    /// than it was), and ends the phase: a stop that came meanwhile sends its `STOPPING=1`
    /// now, after the reload's `READY=1`.
    func reload(_ hive: Hive, answering callers: [ControlCaller]) async {
        let outcome = await apply(reloadOf: hive)
        malloc_trim(0)
        HiveMetrics.shared.recordReload(outcome)
        if !callers.isEmpty {
            let reply = Self.reply(to: outcome, path: options.configurationPath)
            for caller in callers { caller.reply(reply) }
        }
        if state.withLock({ $0.lifecycle.reloadEnded() }) {
            notifier.send(.stopping(status: Self.stoppingStatus))
        }
    }

    /// `Reload`'s reply: what changed, or `ConfigurationInvalid` / `ReloadFailed`.
    static func reply(to outcome: ReloadOutcome, path: String?) -> [UInt8] {
        switch outcome {
        case .applied(let summary):
            // Applied: hooks that threw after the commit (a module's reload, say) were logged
            // and do not undo it.
            return VarlinkCoding.reply(DaemonAPI.ReloadResult(
                added: summary.added, removed: summary.removed, changed: summary.changed, reloaded: summary.reloaded))
        case .invalid(let error):
            // The message without the place the error's own text starts with: `FILE:LINE: `,
            // or `FILE: ` when the file could not be read at all.
            let file = error.location?.path ?? path ?? "<embedded>"
            var message = error.description
            let place = error.location.map { "\($0): " } ?? "\(file): "
            if message.hasPrefix(place) { message.removeFirst(place.count) }
            return VarlinkError.configurationInvalid(file: file, line: error.location?.line, message: message).encoded
        case .failed(let error):
            return VarlinkError.reloadFailed(
                module: error.module ?? "", event: error.event?.description ?? "reload", message: error.message).encoded
        case .skipped:
            return DaemonRequest.signalledReload.refusal(DaemonLifecycle.stoppingRefusal).encoded
        }
    }

    /// Reloads, all or nothing: `RELOADING=1` first, then read and validate the whole
    /// file, then ``Hive/reload(to:catalog:refusingToRemoveAll:)`` (prepare, then commit or
    /// abort); the daemon's own settings (signals, budgets, log level…) change only with a
    /// committed reload. `READY=1` follows either way, with `STATUS=` saying what changed
    /// or, when the reload failed, the error (file:line, module, hook, cause) while the
    /// previous configuration keeps running. A file that enables no module while modules
    /// run is refused in the reload's build phase unless it says `modules: []`.
    private func apply(reloadOf hive: Hive) async -> ReloadOutcome {
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
        let summary: ReloadSummary
        do {
            summary = try await hive.reload(
                to: configuration.modules, catalog: options.catalog, refusingToRemoveAll: configuration.removingEveryModule)
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
        let (old, restartOnly, suspension) = state.withLock { state in
            let old = state.settings
            if old.signals != configuration.signals { changes.append("signal map") }
            if old.stopBudget != configuration.budgets.stop {
                changes.append("stop budget \(configuration.budgets.stop.shortDescription)")
            }
            state.settings.signals = configuration.signals
            state.settings.stopBudget = configuration.budgets.stop
            let restartOnly = applySystemSettings(configuration, to: &state, changes: &changes)
            return (old, restartOnly, state.lifecycle.suspension)
        }
        for (what, changed) in [
            ("environment", configuration.environment != hive.environment),
            ("log.target", configuration.log.target != old.logTarget),
            ("services", configuration.services.map(\.withoutLocation) != old.services.map(\.withoutLocation)),
            ("control", configuration.control != old.control),
        ] + restartOnly where changed {
            logger.warning("\(what) changed: takes effect at the next start")
        }
        let took = Self.milliseconds(.nanoseconds(Int64(clamping: MonotonicClock.nanoseconds() &- begin)))
        var status = "reloaded in \(took): \(summary)"
        if !changes.isEmpty { status += "; new \(changes.joined(separator: ", "))" }
        if hive.phase == .suspended { status += " (suspended: \(Self.suspensionNote(suspension)))" }
        logger.info("\(status)")
        notifier.send(.ready(status: status))
        return .applied(summary)
    }

    /// Applies what a reload may change at once in `sleep:` and `memory_pressure:` (the
    /// sleep budget, the warning interval) and returns the settings that change only at
    /// the next start, each with whether it changed.
    private func applySystemSettings(
        _ configuration: DaemonConfiguration, to state: inout State, changes: inout [String]
    ) -> [(String, Bool)] {
        let (sleep, pressure) = (configuration.sleep, configuration.memoryPressure)
        let old = state.settings
        if old.sleep.budget != sleep.budget {
            changes.append("sleep budget \(sleep.budget.shortDescription)")
            state.sleepWatch?.setBudget(sleep.budget)
        }
        if old.memoryPressure.interval != pressure.interval {
            changes.append("memory pressure interval \(pressure.interval.shortDescription)")
            state.pressureWatch?.setInterval(pressure.interval)
        }
        state.settings.sleep.budget = sleep.budget
        state.settings.memoryPressure.interval = pressure.interval
        return [
            ("sleep.follow", old.sleep.follow != sleep.follow),
            ("memory_pressure.watch", old.memoryPressure.watch != pressure.watch),
            ("memory_pressure.threshold", old.memoryPressure.threshold != pressure.threshold),
            ("memory_pressure.window", old.memoryPressure.window != pressure.window),
        ]
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
    /// A stop came before it started: nothing was read.
    case skipped
}
