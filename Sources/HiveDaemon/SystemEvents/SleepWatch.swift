import HiveKit
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Follows the system's sleep through logind (`org.freedesktop.login1(5)`), on a thread
/// of its own that owns the system bus connection.
///
/// It takes a *delay* inhibitor lock for `sleep` (`Inhibit("sleep", who, why, "delay")`)
/// and listens for `PrepareForSleep` from logind's current unique name only (a signal
/// addressed to hived by anyone else is ignored). `PrepareForSleep(true)` is handed to the
/// daemon, which delivers `background` and then calls ``releaseLock()``; if that takes
/// longer than the sleep budget (timed by the process's ``DeadlineTimer``), the watch
/// releases the lock itself and says so through `budgetExpired`. `PrepareForSleep(false)` is handed on too, and a new lock is taken.
///
/// No system bus, no logind, or a refused `Inhibit`: one info line, and the watch ends
/// (the daemon runs on without sleep handling). Nothing here blocks the caller: the bus
/// is read by the watch's thread in `poll(2)`, method calls are asynchronous, and
/// releasing the lock is a `close(2)` under a lock.
final class SleepWatch: Sendable {
    /// What the watch tells the daemon: logind's `PrepareForSleep(entering)`. Called on
    /// the watch's thread; it must not block.
    typealias Notice = @Sendable (_ entering: Bool) -> Void
    /// Called on the timer's queue when the sleep budget ran out and the watch released the
    /// lock itself: the daemon names the late modules. It must not block.
    typealias BudgetExpired = @Sendable (_ budget: Duration) -> Void

    private struct State {
        /// The delay lock (the descriptor logind handed out), or -1.
        var lock: Int32 = -1
        /// `CLOCK_MONOTONIC` nanoseconds when `PrepareForSleep(true)` arrived; 0 when the
        /// system is not preparing to sleep.
        var sleepingSince: UInt64 = 0
        var budget: Duration
        /// The timer of the sleep budget under way, if one is.
        var budgetTimer: UInt64?
        /// The first `Inhibit` was answered (or the watch gave up): start-up may go on.
        var settled = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var stopped = false
    }

    private let state: Mutex<State>
    private let wakeup: Wakeup?
    private let budgetExpired: BudgetExpired
    let logger: Logger
    /// The inhibitor's `who` (the daemon's name).
    let who: String

    /// How long start-up waits for logind's answer to the first `Inhibit` before it sends
    /// `READY=1` anyway (a lock granted later is still held).
    static let settleTimeout: Duration = .seconds(3)
    /// The inhibitor's `why`.
    static let why = "modules finish background work"
    static let login1 = "org.freedesktop.login1"
    static let login1Path = "/org/freedesktop/login1"
    static let manager = "org.freedesktop.login1.Manager"

    private init(who: String, budget: Duration, logger: Logger, budgetExpired: @escaping BudgetExpired) {
        self.who = who
        self.logger = logger
        self.budgetExpired = budgetExpired
        self.wakeup = Wakeup()
        self.state = Mutex(State(budget: budget))
    }

    /// Starts following sleep on a new thread: connects to the system bus and asks logind
    /// for the delay lock. ``waitUntilSettled(within:)`` waits for logind's answer.
    static func start(
        who: String, budget: Duration, logger: Logger, notice: @escaping Notice,
        budgetExpired: @escaping BudgetExpired
    ) -> SleepWatch {
        let watch = SleepWatch(who: who, budget: budget, logger: logger, budgetExpired: budgetExpired)
        if !DaemonThread.start(name: "hive-sleep", { watch.run(notice: notice) }) {
            logger.info("system sleep not followed: no thread for the system bus")
            watch.finish()
        }
        return watch
    }

    /// Waits until logind answered the first `Inhibit` (or the watch gave up), at most
    /// `timeout`, or until ``stopWaiting()``. Returns whether the lock is held.
    @discardableResult
    func waitUntilSettled(within timeout: Duration) async -> Bool {
        // The process's deadline timer, not a sleeping task: nothing for the cooperative
        // pool to schedule before `READY=1`.
        let timer = DeadlineTimer.shared.run(after: timeout) { [self] in stopWaiting() }
        defer { DeadlineTimer.shared.cancel(timer) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let settled = state.withLock { state in
                if !state.settled { state.waiters.append(continuation) }
                return state.settled
            }
            if settled { continuation.resume() }
        }
        return isHoldingLock
    }

    /// Ends every ``waitUntilSettled(within:)`` now (a stop during start-up).
    func stopWaiting() {
        let waiters = state.withLock { state in
            state.settled = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether a delay lock is held now.
    var isHoldingLock: Bool { state.withLock { $0.lock >= 0 } }

    /// Sets how long `background` may hold the sleep up (a reload); a sleep under way gets
    /// the new budget, counted from its start.
    func setBudget(_ budget: Duration) {
        state.withLock { state in
            state.budget = budget
            if state.budgetTimer != nil { armBudget(&state) }
        }
    }

    /// Releases the delay lock once `background` was delivered for a sleep; returns how
    /// long the sleep was held up, or `nil` when no lock was held for it (none was
    /// granted, or the budget released it already).
    func releaseLock() -> Duration? {
        state.withLock { state in
            guard state.lock >= 0, state.sleepingSince != 0 else { return nil }
            disarmBudget(&state)
            close(state.lock)
            state.lock = -1
            return .nanoseconds(Int64(clamping: MonotonicClock.nanoseconds() &- state.sleepingSince))
        }
    }

    /// Ends the watch: the thread closes the bus and the lock.
    func stop() {
        state.withLock { $0.stopped = true }
        wakeup?.signal()
    }

    // MARK: - On the watch's thread

    /// A delay lock granted: keep it (closing any older one) and let start-up go on.
    func hold(_ lock: Int32) {
        state.withLock { state in
            if state.lock >= 0 { close(state.lock) }
            state.lock = lock
            state.sleepingSince = 0
        }
        stopWaiting()
    }

    /// Notes `PrepareForSleep(entering)`: the budget starts, or (on resume) a lock left
    /// over from before the sleep is closed.
    func prepareForSleep(_ entering: Bool) {
        state.withLock { state in
            if entering {
                state.sleepingSince = MonotonicClock.nanoseconds()
                if state.lock >= 0 { armBudget(&state) }
            } else {
                disarmBudget(&state)
                state.sleepingSince = 0
                if state.lock >= 0 { close(state.lock) }
                state.lock = -1
            }
        }
    }

    /// Times the sleep under way's budget from its start (replacing a timer set before).
    private func armBudget(_ state: inout State) {
        disarmBudget(&state)
        let end = state.sleepingSince &+ state.budget.nanosecondsClamped
        let left = Duration.nanoseconds(Int64(clamping: end &- min(end, MonotonicClock.nanoseconds())))
        state.budgetTimer = DeadlineTimer.shared.run(after: left) { [self] in expireBudget() }
    }

    private func disarmBudget(_ state: inout State) {
        if let timer = state.budgetTimer { DeadlineTimer.shared.cancel(timer) }
        state.budgetTimer = nil
    }

    /// The budget ran out (on the timer's queue): releases the lock if it is still held for
    /// the sleep, and says so.
    private func expireBudget() {
        let budget = state.withLock { state -> Duration? in
            state.budgetTimer = nil
            guard state.lock >= 0, state.sleepingSince != 0 else { return nil }
            close(state.lock)
            state.lock = -1
            return state.budget
        }
        if let budget { budgetExpired(budget) }
    }

    /// Whether ``stop()`` was called.
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// The descriptor that wakes the thread, if any.
    var wakeupDescriptor: Int32? { wakeup?.fileDescriptor }

    /// Empties the wakeup after a wake.
    func drainWakeup() { wakeup?.drain() }

    /// Closes the lock when the thread ends.
    func finish() {
        state.withLock { state in
            disarmBudget(&state)
            if state.lock >= 0 { close(state.lock) }
            state.lock = -1
        }
        stopWaiting()
    }
}
