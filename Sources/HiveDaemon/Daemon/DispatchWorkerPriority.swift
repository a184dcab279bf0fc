import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// libdispatch sets the priority of every worker thread it starts (`setpriority(2)`, after
/// its quality of service) and, when that is refused, writes `Failed to set thread priority
/// for worker thread…` to syslog for that thread: under a system-call filter without
/// `@resources` (hived's unit), one line per worker, three or four at every start and more
/// whenever an idle worker is replaced.
///
/// ``quietIfRefused()`` finds out at the top of `main` and, if so, turns libdispatch's log
/// off; the daemon then says it once (``takeNotice()``). libdispatch writes nothing else
/// there on Linux but the rare `BUG in libdispatch` report.
enum DispatchWorkerPriority {
    /// The `errno` of the refusal ``quietIfRefused()`` saw, until ``takeNotice()``; 0 for none.
    private static let refusal = Atomic<Int32>(0)

    /// Checks whether this thread may set its own priority (to what it is, so nothing
    /// changes); when it may not, sets `LIBDISPATCH_LOG=NO` unless the environment already
    /// says how libdispatch logs. Call while the calling thread is the only one (`setenv`),
    /// before libdispatch starts a thread.
    static func quietIfRefused() {
        let thisThread = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(thisThread, 0)
        var refused = errno
        if refused == 0, setpriority(thisThread, 0, current) != 0 { refused = errno }
        guard refused != 0 else { return }
        refusal.store(refused, ordering: .relaxed)
        setenv("LIBDISPATCH_LOG", "NO", 0)
    }

    /// The line that replaces libdispatch's, once per process: `nil` when thread
    /// priorities can be set, or once it was taken.
    static func takeNotice() -> String? {
        let refused = refusal.exchange(0, ordering: .relaxed)
        guard refused != 0 else { return nil }
        return "thread priorities cannot be set (setpriority: \(String(cString: strerror(refused)))): "
            + "worker threads keep the daemon's priority; libdispatch's line for each is off (LIBDISPATCH_LOG=NO)"
    }
}
