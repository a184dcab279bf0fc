import Foundation

/// Children start the way systemd starts a service: no signal blocked, every disposition
/// the default. A child inherits the signal mask of the thread that spawns it, and the
/// test runner's threads (Dispatch's) block nearly every signal: a daemon that forgot to
/// block its own signals would pass every test and die on the first `SIGHUP` in
/// production.
enum SystemdSignalMask {
    /// Runs `spawn` (a `Process.run()`) with no signal blocked in the calling thread, then
    /// restores the thread's mask. Nothing suspends in between, so the thread is open to
    /// a process-wide signal only for the instant of the spawn.
    static func spawning<T>(_ spawn: () throws -> T) rethrows -> T {
        var none = sigset_t()
        var saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        return try spawn()
    }

    /// `posix_spawn` attributes that give the child an empty mask and default dispositions.
    static func attributes() -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return attributes
    }
}
