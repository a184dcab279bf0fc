import HiveKit
#if canImport(Glibc)
import Glibc
#endif

/// The stop budget's last line of defence: a thread of its own, outside Swift's
/// cooperative pool, that ends the process when the budget runs out, whatever holds the
/// stop up.
///
/// Armed by the first stop signal (or a failed start's rollback) with an absolute deadline.
/// If the daemon has not claimed the exit by then (``exit(_:)`` after a clean stop), the
/// guard claims it: it reports what is stuck (the `report` closure logs it and queues
/// `STATUS=`), gives the output writers up to ``reportGrace`` to deliver, and calls
/// `_exit` with the status it was armed with (75 for a stop). Nothing it does needs a
/// pool thread, a task or a lock a module can hold, so hooks that block every pool thread
/// cannot keep it from exiting. If the daemon claimed a clean exit but the process is still
/// there ``reportGrace`` after the deadline (`exit(3)` stuck in an exit handler), the guard
/// ends it with the claimed status.
///
/// The thread starts once start-up is over (``start()``, after `READY=1`), or at the
/// first stop signal, whichever comes first: a thread costs start-up time, and until a
/// stop is asked for it has nothing to do. It raises itself above ordinary threads where
/// the process may (``ThreadPriority``), and raises every other thread of the process just
/// before `_exit`, which each must run to die before the exit is seen: beside two CPU hogs
/// the guard woke up to 15 ms late and the threads took up to 36 ms to die; raised, 0.1 ms
/// and 10 ms. Under hived's unit (no `@resources`) neither is allowed and nothing changes.
///
/// `@unchecked Sendable`: `deadline`, `status`, `claimed`, `isStarted` and `isRetired` are only
/// touched under `condition`'s mutex.
final class StopGuard: @unchecked Sendable {
    /// How long past the deadline the output writers may take to deliver the final report
    /// (the log line; the `STATUS=` goes out at once unless notifications are queued before
    /// it): half the 100 ms the contract allows past the budget, leaving the rest for
    /// threads that wake late on a loaded machine.
    static let reportGrace: UInt64 = 50_000_000

    private let condition = ThreadCondition()
    private var deadline: UInt64?
    /// The exit status when the budget runs out.
    private var status = DaemonExitCode.stopBudgetExceeded.rawValue
    private var claimed: Int32?
    /// Stood down by ``retire()``: the daemon returned and the process goes on.
    private var isRetired = false
    /// The thread was started (or its start was attempted and failed: ``start()`` says).
    private var isStarted = false
    private var report: @Sendable () -> Void = {}
    private var flush: @Sendable (UInt64) -> Void = { _ in }

    /// A guard whose thread is not started yet.
    init() {}

    /// Starts the guard's thread, which sleeps until ``arm(deadline:report:flush:)``; only
    /// the first call does anything. Returns false if the thread could not be created
    /// (then the stop budget is not enforced by the guard).
    @discardableResult
    func start() -> Bool {
        let first = condition.withLock {
            defer { isStarted = true }
            return !isStarted
        }
        guard first else { return true }
        return DaemonThread.start(name: "hive-stopguard") { [self] in watch() }
    }

    /// Starts the countdown: the process ends by `deadline` (`CLOCK_MONOTONIC` nanoseconds).
    /// If the budget runs out, the guard calls `report`, then `flush(end)` to let the
    /// report out by `end`, and exits with `status`. Only the first call counts. Starts the
    /// thread if ``start()`` has not (false if it could not be created). Never blocks;
    /// safe on the signal thread.
    @discardableResult
    func arm(
        deadline: UInt64, status: DaemonExitCode = .stopBudgetExceeded,
        report: @escaping @Sendable () -> Void, flush: @escaping @Sendable (UInt64) -> Void
    ) -> Bool {
        condition.withLock {
            guard self.deadline == nil else { return }
            self.deadline = deadline
            self.status = status.rawValue
            self.report = report
            self.flush = flush
        }
        condition.broadcast()
        return start()
    }

    /// The deadline, once armed.
    var armedDeadline: UInt64? { condition.withLock { deadline } }

    /// Claims the exit for `status` and exits with it: false if the guard already claimed
    /// it (the budget ran out), and then the caller must wait for the guard to end the
    /// process.
    func claim(_ status: Int32) -> Bool {
        condition.withLock {
            guard claimed == nil else { return false }
            claimed = status
            return true
        }
    }

    /// Stands the guard down for good and ends its thread: for a daemon whose ``HiveDaemon/run()``
    /// returned in a process that goes on (a `DaemonService` in an application's
    /// ServiceGroup, a test), where nothing is left for the stop budget to cut short.
    func retire() {
        condition.withLock { isRetired = true }
        condition.broadcast()
    }

    private func watch() {
        ThreadPriority.raiseCallingThread()
        let outcome = condition.withLock {
            () -> (Int32, Bool, UInt64, @Sendable () -> Void, @Sendable (UInt64) -> Void)? in
            while true {
                if isRetired { return nil }
                guard let deadline = self.deadline else {
                    condition.wait(until: nil)
                    continue
                }
                if MonotonicClock.nanoseconds() >= deadline { break }
                condition.wait(until: deadline)
            }
            if let claimed { return (claimed, false, self.deadline!, self.report, self.flush) }
            claimed = status
            return (status, true, self.deadline!, self.report, self.flush)
        }
        guard let (status, byGuard, deadline, report, flush) = outcome else { return }
        let end = deadline + Self.reportGrace
        if byGuard {
            report()
            flush(end)
        } else {
            var time = timespec(tv_sec: Int(end / 1_000_000_000), tv_nsec: Int(end % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
        }
        // `_exit` runs no `atexit` handlers: remove the control socket here (one unlink).
        ControlSocketFile.removeCreated()
        ThreadPriority.raiseOtherThreads()
        _exit(status)
    }
}
