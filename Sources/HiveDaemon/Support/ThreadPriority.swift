import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Raises the threads that must run when the stop budget runs out above the machine's
/// ordinary threads, where the process may (see `hive_raise_thread`): real time as root or
/// with `CAP_SYS_NICE`, else the shortest slice of the fair scheduler, which needs no
/// privilege. Under a system-call filter that refuses `@resources` (hived's unit) nothing
/// changes, silently. Only the stop guard uses it: never a thread of the event path.
enum ThreadPriority {
    /// The stop guard's real-time priority: above the threads it raises before `_exit`
    /// (``raiseOtherThreads()``), so none of them, even one spinning, delays the exit.
    static let guardPriority: Int32 = 2
    /// The real-time priority the other threads get before `_exit`.
    static let othersPriority: Int32 = 1

    /// Raises the calling thread (the stop guard, when it starts); false if not allowed.
    @discardableResult
    static func raiseCallingThread() -> Bool {
        hive_raise_thread(0, guardPriority) > 0
    }

    /// Raises every other thread of the process, listed in `/proc/self/task`, just before
    /// `_exit`: each thread must run to die, and the process is seen to exit (by `waitpid`
    /// or a pidfd) only once its last thread did. Stops at the first refusal: the others
    /// would be refused too. Not earlier: a hook that spins would then spin at real time.
    static func raiseOtherThreads() {
        guard let directory = opendir("/proc/self/task") else { return }
        defer { closedir(directory) }
        let me = hive_thread_id()
        while let entry = readdir(directory) {
            let tid = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                pid_t(String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)) ?? 0
            }
            guard tid > 0, tid != me else { continue }
            if hive_raise_thread(tid, othersPriority) == 0 { return }
        }
    }
}
