import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Starts the daemon's own threads — the signal reader aside (the main thread), every one:
/// the control socket's, the stop guard, the output writers, the sleep and memory pressure
/// watches. Plain detached pthreads, outside Swift's cooperative pool, so a module that
/// blocks every pool thread cannot stop them.
enum DaemonThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts a detached thread named `name` (at most 15 bytes, as `ps -L` shows it; the
    /// daemon's threads are `hive-…`, whatever the daemon's own name) that
    /// runs `body`, which it owns from then on (`sending`: what it captures is the new
    /// thread's alone). The thread inherits the caller's signal mask: hived's handled
    /// signals stay blocked there. Returns false if the thread could not be created. Wraps
    /// `pthread_create`.
    @discardableResult
    static func start(name: String, _ body: sending @escaping () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body {
            setName(name)
            body()
        }).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, 256 * 1024)
        var thread = pthread_t()
        let created = pthread_create(&thread, &attributes, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        guard created == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return false
        }
        return true
    }

    /// Names the calling thread (`prctl(PR_SET_NAME)`, which `pthread_setname_np` calls
    /// too), without a descriptor or `/proc`.
    private static func setName(_ name: String) {
        _ = hive_set_thread_name(String(decoding: name.utf8.prefix(15), as: UTF8.self))
    }
}
