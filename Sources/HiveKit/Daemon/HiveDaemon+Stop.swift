#if canImport(Glibc)
import Glibc
#endif

extension HiveDaemon {
    /// Stops: `STOPPING=1` first (unless already sent), then `terminate` in order and
    /// `teardown` in reverse, within what is left of the stop budget (it started when the
    /// stop signal arrived). While modules still work after a second, systemd is asked
    /// for more time (`EXTEND_TIMEOUT_USEC`) so that the stop budget, not
    /// `TimeoutStopSec=`, decides. Further stop signals change nothing.
    func stop(_ hive: Hive) async -> DaemonExitCode {
        let (deadline, alreadySent) = current.withLock { current in
            let deadline = current.stopDeadline ?? ContinuousClock.now + current.stopBudget
            current.stopDeadline = deadline
            defer { current.isStopping = true }
            return (deadline, current.sentStopping)
        }
        if !alreadySent { notifier.send(.stopping(status: "stopping: terminate, then teardown")) }
        let extender = Task { [notifier] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard !Task.isCancelled, ContinuousClock.now < deadline else { return }
                if hive.stalledHandlers().isEmpty {
                    notifier.send(.extendTimeout(by: deadline - ContinuousClock.now + .seconds(5)))
                }
            }
        }
        defer { extender.cancel() }
        let left = max(deadline - ContinuousClock.now, .zero)
        let outcome = await BudgetRace.run(within: left) { _ = await hive.stop() }
        guard case .timedOut = outcome else {
            logger.info("stopped")
            return .success
        }
        reportStopBudgetExceeded(hive, while: "stopping")
        return .stopBudgetExceeded
    }

    /// Starts the stop budget when the first stop signal arrives (on the signal thread).
    ///
    /// A stop waits for the event being delivered (or for start-up) to finish; if that
    /// hook hangs, the daemon exits 75 when the budget runs out rather than waiting for
    /// systemd's `SIGKILL`. During start-up `STOPPING=1` is sent at once, and the daemon
    /// then stops without ever reporting ready (see ``run()``).
    func armStopDeadline(_ hive: Hive) {
        let armed = current.withLock { current -> (budget: Duration, starting: Bool)? in
            guard current.stopDeadline == nil else { return nil }
            current.stopDeadline = ContinuousClock.now + current.stopBudget
            if current.isStarting {
                current.stopRequestedWhileStarting = true
                current.sentStopping = true
            }
            return (current.stopBudget, current.isStarting)
        }
        guard let armed else { return }
        if armed.starting { notifier.send(.stopping(status: "stopping: waiting for start-up to finish")) }
        Task { [self] in
            try? await Task.sleep(for: armed.budget)
            guard !current.withLock({ $0.isStopping }) else { return }
            reportStopBudgetExceeded(hive, while: armed.starting ? "starting" : "waiting for an event")
            exit(DaemonExitCode.stopBudgetExceeded.rawValue)
        }
    }

    /// Logs and reports (`STATUS=`) which hooks held the stop up past its budget.
    private func reportStopBudgetExceeded(_ hive: Hive, while phase: String) {
        let budget = current.withLock { $0.stopBudget }
        let stuck = hive.runningHandlers().map(\.description).joined(separator: "; ")
        let status = "stop budget of \(budget.shortDescription) exceeded while \(phase)"
            + (stuck.isEmpty ? "" : ": \(stuck)")
        logger.critical("\(status)")
        notifier.send(.status(status))
    }
}
