import HiveKit
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
        if !alreadySent { notifier.send(.stopping(status: Self.stoppingStatus)) }
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

    /// Starts the stop budget and sends `STOPPING=1` when the first stop signal arrives
    /// (on the signal thread), so systemd learns of the stop at once; during a reload,
    /// `STOPPING=1` follows the reload's `READY=1` instead (see ``stop(_:)``).
    ///
    /// A stop waits for the event being delivered (or for start-up) to finish; if that
    /// hook hangs, the daemon exits 75 when the budget runs out rather than waiting for
    /// systemd's `SIGKILL`. A stop during start-up ends the daemon without its ever
    /// reporting ready (see ``run()``).
    func armStopDeadline(_ hive: Hive) {
        let armed = current.withLock { current -> (budget: Duration, starting: Bool, announce: Bool)? in
            guard current.stopDeadline == nil else { return nil }
            current.stopDeadline = ContinuousClock.now + current.stopBudget
            if current.isStarting { current.stopRequestedWhileStarting = true }
            let announce = !current.isReloading
            if announce { current.sentStopping = true }
            return (current.stopBudget, current.isStarting, announce)
        }
        guard let armed else { return }
        if armed.announce {
            let waitingFor = armed.starting ? "start-up" : hive.runningHandlers().isEmpty ? nil : "the current event"
            notifier.send(.stopping(status: waitingFor.map { "stopping: waiting for \($0) to finish" } ?? Self.stoppingStatus))
        }
        Task { [self] in
            try? await Task.sleep(for: armed.budget)
            guard !current.withLock({ $0.isStopping }) else { return }
            reportStopBudgetExceeded(hive, while: armed.starting ? "starting" : "waiting for an event")
            exit(DaemonExitCode.stopBudgetExceeded.rawValue)
        }
    }

    /// `STATUS=` with `STOPPING=1` when nothing holds the stop up.
    static let stoppingStatus = "stopping: terminate, then teardown"

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
