import HiveKit
import Logging

extension HiveDaemon {
    /// Stops the daemon as a stop signal would (`STOPPING=1`, the stop budget, then
    /// `terminate` and `teardown`), for a stop that does not come from a signal: a
    /// ServiceGroup's graceful shutdown, or a module through ``HiveKit/HiveHost``.
    ///
    /// Returns at once; safe from any thread, before or during the start too (the daemon
    /// then stops without reporting ready). With `failure`, a clean stop exits
    /// ``DaemonExitCode/serviceUnavailable`` instead of 0, and `failure` is logged and put
    /// in `STATUS=`.
    package func requestStop(_ reason: String, failure: String? = nil) {
        current.withLock { current in
            if let failure, current.failureStop == nil { current.failureStop = failure }
        }
        if let failure {
            logger.error("stopping: \(failure)")
            notifier.send(.status("stopping: \(failure)"))
        } else {
            logger.info("\(reason), stopping")
        }
        post(.stop(signal: 0))
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

    /// The exit status of a stop that ended with `status`: a clean stop that a module
    /// asked for on a failure is ``DaemonExitCode/serviceUnavailable``.
    func exitStatus(after status: DaemonExitCode) -> DaemonExitCode {
        guard status == .success, current.withLock({ $0.failureStop }) != nil else { return status }
        return .serviceUnavailable
    }
}

/// The daemon as its modules see it (``HiveKit/HiveHost``): a module asks it for a stop.
struct DaemonHost: HiveHost {
    let daemon: HiveDaemon

    func requestStop(module: String, reason: String, failure: Bool) {
        let what = "module '\(module)': \(reason)"
        daemon.requestStop("module '\(module)' asked for a stop (\(reason))", failure: failure ? what : nil)
    }
}
