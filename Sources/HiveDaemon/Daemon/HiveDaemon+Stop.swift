import HiveKit
#if canImport(Glibc)
import Glibc
#endif

extension HiveDaemon {
    /// A stop begins (the ``DaemonLifecycle`` said so): the stop budget starts, systemd
    /// learns of the stop at once (`STOPPING=1`, saying what it waits for) unless a reload
    /// is under way (its `READY=1` goes first: see ``reload(_:answering:)``), and the
    /// requests that had not started are dropped, their control callers answered.
    ///
    /// A stop waits for the event being delivered (or for start-up) to finish; whatever
    /// hangs, the ``StopGuard`` ends the process with 75 when the budget runs out rather
    /// than waiting for systemd's `SIGKILL`.
    func beginStop(_ stage: DaemonLifecycle.Stop.Stage, deadline: UInt64, dropping dropped: [DaemonRequest]) {
        armStopGuard(deadline: deadline, status: .stopBudgetExceeded)
        let (hive, sleepWatch) = state.withLock { ($0.hive, $0.sleepWatch) }
        if stage == .afterConfiguration || stage == .afterStartUp { sleepWatch?.stopWaiting() }
        let waitingFor: String? = switch stage {
        case .afterConfiguration: "the configuration file to be read"
        case .afterStartUp: "start-up to finish"
        case .afterEvent: hive.map { $0.runningHandlers().isEmpty } ?? true ? nil : "the current event to finish"
        case .afterReload, .terminating: nil
        }
        if stage != .afterReload {
            notifier.send(.stopping(status: waitingFor.map { "stopping: waiting for \($0)" } ?? Self.stoppingStatus))
        }
        if !dropped.isEmpty { dropUnstarted(dropped) }
    }

    /// Answers the callers of requests a stop dropped ("the daemon is stopping"), counts a
    /// dropped reload as skipped, and logs how many of each were dropped.
    private func dropUnstarted(_ dropped: [DaemonRequest]) {
        var counts: [(name: String, count: Int)] = []
        for request in dropped {
            for caller in request.callers {
                caller.reply(request.refusal(DaemonLifecycle.stoppingRefusal).encoded)
            }
            if case .reload = request { HiveMetrics.shared.recordReload(.skipped) }
            if let index = counts.firstIndex(where: { $0.name == request.name }) {
                counts[index].count += 1
            } else {
                counts.append((request.name, 1))
            }
        }
        let summary = counts.map { $0.count == 1 ? $0.name : "\($0.name) ×\($0.count)" }.joined(separator: ", ")
        logger.info("stopping: dropped \(dropped.count) queued request\(dropped.count == 1 ? "" : "s") that had not started (\(summary))")
    }

    /// A start phase failed and the rollback begins: unless a stop is under way (its budget
    /// bounds the rollback already), the stop budget bounds it from now: if hooks that
    /// block their threads hold the rollback up, the ``StopGuard`` reports them when the
    /// budget runs out and ends the process with 70, as the failed start would have.
    func beginRollback() {
        let begun = state.withLock { state -> (UInt64, [DaemonRequest])? in
            guard let dropped = state.lifecycle.startFailed() else { return nil }
            return (MonotonicClock.nanoseconds() &+ state.settings.stopBudget.nanosecondsClamped, dropped)
        }
        guard let (deadline, dropped) = begun else { return }
        armStopGuard(deadline: deadline, status: .moduleFailed)
        for request in dropped {
            for caller in request.callers { caller.reply(request.refusal(DaemonLifecycle.stoppingRefusal).encoded) }
        }
    }

    private func armStopGuard(deadline: UInt64, status: DaemonExitCode) {
        let guarded = stopGuard.arm(
            deadline: deadline, status: status, report: { [self] in reportStopBudgetExceeded() },
            flush: { [notifier] end in
                // A notification systemd has not taken since a grace before the deadline
                // will not be taken in the grace after it: only the log lines are waited for.
                if !notifier.isBlocked(since: end &- 2 * StopGuard.reportGrace) { notifier.flush(until: end) }
                HiveLogging.flush(until: end)
            })
        if !guarded { logger.error("no thread for the stop guard: the stop budget is not enforced") }
    }

    /// Stopping: `terminate` in order and `teardown` in reverse. While modules still work
    /// after a second, systemd is asked for more time (`EXTEND_TIMEOUT_USEC`) so that the
    /// stop budget, not `TimeoutStopSec=`, decides. The stop budget (it started when the
    /// stop was asked for) is enforced by the ``StopGuard``, which needs nothing of this
    /// task.
    func stop(_ hive: Hive) async -> DaemonExitCode {
        let begin = MonotonicClock.nanoseconds()
        stopSystemWatches()
        let deadline = stopGuard.armedDeadline ?? begin
        let extender = DeadlineTimer.shared.run(every: .seconds(1)) { [notifier] in
            let now = MonotonicClock.nanoseconds()
            if now < deadline, hive.stalledHandlers().isEmpty {
                notifier.send(.extendTimeout(by: .nanoseconds(Int64(clamping: deadline - now)) + .seconds(5)))
            }
        }
        defer { DeadlineTimer.shared.cancel(extender) }
        _ = await hive.stop()
        let took = Self.milliseconds(.nanoseconds(Int64(clamping: MonotonicClock.nanoseconds() &- begin)))
        logger.info("stopped in \(took)")
        return .success
    }

    /// `STATUS=` with `STOPPING=1` when nothing holds the stop up.
    static let stoppingStatus = "stopping: terminate, then teardown"

    /// Logs and reports (`STATUS=`) what held the stop up past its budget: hooks still
    /// running (abandoned ones included), a configuration file being read, notifications
    /// systemd has not taken. `STOPPING=1` goes with it if it was held back for a reload
    /// that never finished (not for a failed start's rollback: that is no stop). Runs on
    /// the stop guard's thread: it takes only short locks. The `STATUS=` goes out from that
    /// thread as one datagram when nothing is queued before it
    /// (``SystemdNotifier/sendNow(_:)``), not waiting for the notify writer's thread to
    /// wake, which on a loaded machine took up to 14 ms.
    func reportStopBudgetExceeded() {
        let (budget, hive, reading, expired) = state.withLock { state in
            let expired = state.lifecycle.stopBudgetExpired(reading: state.reading != nil)
            return (state.settings.stopBudget, state.hive, state.reading, expired)
        }
        var stuck: [String] = []
        if let hive {
            stuck += hive.runningHandlers().map(\.description)
            stuck += hive.abandonedHandlers().map(\.description)
        }
        if let reading { stuck.append("reading \(reading)") }
        if let backlog = notifier.backlog { stuck.append(backlog) }
        let status = "stop budget of \(budget.shortDescription) exceeded while \(expired.doing)"
            + (stuck.isEmpty ? "" : ": \(stuck.joined(separator: "; "))")
        logger.critical("\(status)")
        notifier.sendNow(expired.announce ? .stopping(status: status) : .status(status))
    }

    /// The exit status of a stop that ended with `status`: a clean stop that a module
    /// asked for on a failure is ``DaemonExitCode/serviceUnavailable``.
    func exitStatus(after status: DaemonExitCode) -> DaemonExitCode {
        guard status == .success, state.withLock({ $0.lifecycle.stopFailure }) != nil else { return status }
        return .serviceUnavailable
    }

    /// Ends the process with `status`, once systemd has taken every notification queued
    /// before (so `STOPPING=1` or the failure's `STATUS=` is not lost) and the log lines
    /// had a moment to go out.
    ///
    /// After a stop signal, the stop budget bounds all of it: a notification socket that
    /// does not drain by the deadline turns a clean stop into the stop guard's exit 75,
    /// naming `NOTIFY_SOCKET`. Without one (exit 70 or 78), the outputs get a second.
    func exit(_ status: DaemonExitCode) -> Never {
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

    /// Ends a daemon whose ``run()`` returned in a process that goes on (a
    /// `DaemonService`, whose application may exit right after): writes what is still
    /// queued for systemd and stderr, for at most `limit`, and stands the stop guard down,
    /// which would otherwise end the process when the stop budget runs out.
    package func finish(within limit: Duration = .seconds(1)) {
        stopGuard.retire()
        let deadline = MonotonicClock.nanoseconds() &+ limit.nanosecondsClamped
        notifier.flush(until: deadline)
        HiveLogging.flush(until: deadline)
    }
}
