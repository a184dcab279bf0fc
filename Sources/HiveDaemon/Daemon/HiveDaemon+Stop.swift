import HiveKit
#if canImport(Glibc)
import Glibc
#endif

extension HiveDaemon {
    /// Stops: `STOPPING=1` first (unless already sent), then `terminate` in order and
    /// `teardown` in reverse. While modules still work after a second, systemd is asked
    /// for more time (`EXTEND_TIMEOUT_USEC`) so that the stop budget, not
    /// `TimeoutStopSec=`, decides. Further stop signals change nothing; the stop budget
    /// (it started when the stop signal arrived) is enforced by the ``StopGuard``, which
    /// needs nothing of this task.
    func stop(_ hive: Hive) async -> DaemonExitCode {
        let begin = MonotonicClock.nanoseconds()
        stopSystemWatches()
        armStopDeadline()
        let (deadline, alreadySent) = current.withLock { current in
            defer {
                current.isStopping = true
                current.sentStopping = true
            }
            return (current.stopDeadline ?? 0, current.sentStopping)
        }
        if !alreadySent { notifier.send(.stopping(status: Self.stoppingStatus)) }
        let extender = Task { [notifier] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                let now = MonotonicClock.nanoseconds()
                guard !Task.isCancelled, now < deadline else { return }
                if hive.stalledHandlers().isEmpty {
                    notifier.send(.extendTimeout(by: .nanoseconds(Int64(clamping: deadline - now)) + .seconds(5)))
                }
            }
        }
        defer { extender.cancel() }
        _ = await hive.stop()
        let took = Self.milliseconds(.nanoseconds(Int64(clamping: MonotonicClock.nanoseconds() &- begin)))
        logger.info("stopped in \(took)")
        return .success
    }

    /// Starts the stop budget and sends `STOPPING=1` when the first stop signal arrives
    /// (on the signal thread), so systemd learns of the stop at once; during a reload,
    /// `STOPPING=1` follows the reload's `READY=1` instead (see ``stop(_:)``).
    ///
    /// A stop waits for the event being delivered (or for start-up) to finish; whatever
    /// hangs, the ``StopGuard`` ends the process with 75 when the budget runs out rather
    /// than waiting for systemd's `SIGKILL`. A stop during start-up ends the daemon without
    /// its ever reporting ready (see ``run()``).
    func armStopDeadline() {
        let armed = current.withLock { current -> (deadline: UInt64, hive: Hive?, starting: Bool, announce: Bool)? in
            guard current.stopDeadline == nil else { return nil }
            let deadline = MonotonicClock.nanoseconds() &+ current.stopBudget.nanosecondsClamped
            current.stopDeadline = deadline
            if current.isStarting { current.stopRequestedWhileStarting = true }
            let announce = !current.isReloading
            if announce { current.sentStopping = true }
            return (deadline, current.hive, current.isStarting, announce)
        }
        guard let armed else { return }
        armStopGuard(deadline: armed.deadline, status: .stopBudgetExceeded)
        if armed.starting { current.withLock { $0.sleepWatch }?.stopWaiting() }
        guard armed.announce else { return }
        let waitingFor: String? =
            armed.hive == nil ? "the configuration file to be read"
            : armed.starting ? "start-up to finish"
            : armed.hive!.runningHandlers().isEmpty ? nil : "the current event to finish"
        notifier.send(.stopping(status: waitingFor.map { "stopping: waiting for \($0)" } ?? Self.stoppingStatus))
    }
    /// Bounds a failed start's rollback (the `teardown` of the modules already set up) by
    /// the stop budget, from the failure on, unless a stop signal armed it already: if hooks
    /// that block their threads hold the rollback up, the ``StopGuard`` reports them when
    /// the budget runs out and ends the process with 70, as the failed start would have.
    func armRollbackDeadline() {
        let deadline = current.withLock { current -> UInt64? in
            current.isRollingBack = true
            guard current.stopDeadline == nil else { return nil }
            let deadline = MonotonicClock.nanoseconds() &+ current.stopBudget.nanosecondsClamped
            current.stopDeadline = deadline
            return deadline
        }
        if let deadline { armStopGuard(deadline: deadline, status: .moduleFailed) }
    }

    private func armStopGuard(deadline: UInt64, status: DaemonExitCode) {
        let guarded = stopGuard.arm(
            deadline: deadline, status: status, report: { [self] in reportStopBudgetExceeded() },
            flush: { [notifier] end in
                notifier.flush(until: end)
                HiveLogging.flush(until: end)
            })
        if !guarded { logger.error("no thread for the stop guard: the stop budget is not enforced") }
    }

    /// `STATUS=` with `STOPPING=1` when nothing holds the stop up.
    static let stoppingStatus = "stopping: terminate, then teardown"

    /// Logs and reports (`STATUS=`) what held the stop up past its budget: hooks still
    /// running (abandoned ones included), a configuration file being read, notifications
    /// systemd has not taken. `STOPPING=1` goes with it if it was held back for a reload
    /// that never finished (not for a failed start's rollback: that is no stop). Runs on
    /// the stop guard's thread: it takes only short locks.
    func reportStopBudgetExceeded() {
        let (budget, hive, reading, phase, announce) = current.withLock { current in
            let phase =
                current.readingPath != nil ? "reading the configuration"
                : current.isRollingBack ? "rolling back a failed start"
                : current.isStarting ? "starting"
                : current.isStopping ? "stopping"
                : current.isReloading ? "reloading" : "waiting for an event"
            defer { current.sentStopping = true }
            let announce = !current.sentStopping && !current.isRollingBack
            return (current.stopBudget, current.hive, current.readingPath, phase, announce)
        }
        var stuck: [String] = []
        if let hive {
            stuck += hive.runningHandlers().map(\.description)
            stuck += hive.abandonedHandlers().map(\.description)
        }
        if let reading { stuck.append("reading \(reading)") }
        if let backlog = notifier.backlog { stuck.append(backlog) }
        let status = "stop budget of \(budget.shortDescription) exceeded while \(phase)"
            + (stuck.isEmpty ? "" : ": \(stuck.joined(separator: "; "))")
        logger.critical("\(status)")
        notifier.send(announce ? .stopping(status: status) : .status(status))
    }

    /// Ends the process with `status`, once systemd has taken every notification queued
    /// before (so `STOPPING=1` or the failure's `STATUS=` is not lost) and the log lines
    /// had a moment to go out.
    ///
    /// After a stop signal, the stop budget bounds all of it: a notification socket that
    /// does not drain by the deadline turns a clean stop into the stop guard's exit 75,
    /// naming `NOTIFY_SOCKET`. Without one (exit 70 or 78), the outputs get a second.
    public func exit(_ status: DaemonExitCode) -> Never {
        let now = MonotonicClock.nanoseconds()
        guard let deadline = stopGuard.armedDeadline else {
            _ = stopGuard.claim(status.rawValue)
            notifier.flush(until: now + 1_000_000_000)
            HiveLogging.flush(until: now + 1_000_000_000)
            Glibc.exit(status.rawValue)
        }
        if notifier.flush(until: deadline), stopGuard.claim(status.rawValue) {
            HiveLogging.flush(until: min(now + 500_000_000, deadline + StopGuard.reportGrace / 2))
            Glibc.exit(status.rawValue)
        }
        // The stop guard claimed the exit: it reports and ends the process.
        while true { sleep(60) }
    }
}
