import HiveKit
#if canImport(Glibc)
import Glibc
#endif

/// The signals a daemon handles, and their names.
///
/// Every catchable, asynchronous signal is blocked in every thread (by
/// ``blockInCallingThread()``, called at the top of `main` before any thread exists, so
/// threads inherit the mask) and read with `sigwaitinfo` instead: nothing runs in signal
/// context, a signal that arrives before its handler is ready waits instead of killing
/// the daemon, and `SIGTSTP` suspends modules instead of stopping the process.
public enum DaemonSignals {
    /// Signals left to the kernel: uncatchable ones, synchronous faults (so crashes still
    /// crash), `SIGABRT`, `SIGCHLD`, `SIGPROF` (the Swift runtime's crash handler suspends
    /// threads with it; its default action ends the process) and glibc's internal
    /// real-time signals. (An array: a `Set<Int32>` here cost every start a scan of the
    /// binary's conformance records, for `Int32: Hashable`.)
    static let unhandled: [Int32] = [
        SIGKILL, SIGSTOP, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT, SIGCHLD, SIGPROF,
    ]

    /// Signals with a fixed meaning: stop, reload, suspend and resume.
    static let reserved: Set<Int32> = [SIGTERM, SIGINT, SIGHUP, SIGTSTP, SIGCONT]

    /// Every signal the daemon blocks and reads with `sigwaitinfo`.
    static let handled: [Int32] = (1...SignalName.maximum).filter { signal in
        !unhandled.contains(signal) && (signal < 32 || signal >= (SignalName.realTimeMinimum ?? 32))
    }

    /// Whether a configuration may map `signal` to an event.
    static func isMappable(_ signal: Int32) -> Bool {
        handled.contains(signal) && !reserved.contains(signal)
    }

    /// The set of ``handled`` signals, as `pthread_sigmask` and `sigwaitinfo` take it.
    static var handledSet: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled { sigaddset(&set, signal) }
        return set
    }

    /// Sets the calling thread's mask to exactly the handled signals; call it first thing in
    /// `main`, before any thread exists, so every thread inherits the mask. A mask inherited
    /// from the parent is dropped, so faults and `SIGABRT` always reach the process. Wraps
    /// `pthread_sigmask`.
    ///
    /// Also gives `SIGABRT` back its default action (die with a core dump), which is what
    /// systemd's watchdog expects: the Swift runtime's crash handler returns from an
    /// externally sent `SIGABRT` without ending a process whose main thread waits in
    /// `sigwaitinfo`, so the daemon would hang instead of being restarted.
    public static func blockInCallingThread() {
        var set = handledSet
        pthread_sigmask(SIG_SETMASK, &set, nil)
        signal(SIGABRT, SIG_DFL)
    }

    /// Unblocks every signal in the calling thread, for a command that does not run the
    /// daemon (`check-config`): `SIGINT` and `SIGTERM` then end it as they end any tool.
    /// Wraps `pthread_sigmask`.
    static func unblockInCallingThread() {
        var set = sigset_t()
        sigemptyset(&set)
        pthread_sigmask(SIG_SETMASK, &set, nil)
    }
}
