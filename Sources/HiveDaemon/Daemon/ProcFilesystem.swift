#if canImport(Glibc)
import Glibc
#endif

/// Whether a daemon can run here: libdispatch, under every Swift program's thread pool on
/// Linux, watches its worker threads through `/proc/<thread>/stat` and stops the process
/// (`SIGILL`, "workq: registered worker exited prematurely") when it cannot open it, at
/// most a second after the first worker starts. Where `/proc` is not mounted (a chroot, an
/// early-boot or image-build step) the daemon refuses to start instead, saying why; the
/// commands that are tools (`--version`, `check-config`) start no thread and need no `/proc`.
enum ProcFilesystem {
    /// Why a daemon cannot run here, or `nil` when `/proc` is there.
    static func missingReason() -> String? {
        guard access("/proc/self/stat", R_OK) != 0 else { return nil }
        let cause = String(cString: strerror(errno))
        return "cannot run without /proc (/proc/self/stat: \(cause)): the Swift runtime's thread pool (libdispatch) "
            + "reads /proc/<thread>/stat and stops the process without it; mount it (mount -t proc proc /proc)"
    }
}
