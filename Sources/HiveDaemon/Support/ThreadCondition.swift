#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex and condition variable on `CLOCK_MONOTONIC`: how the daemon's own
/// threads (the output writers, the stop guard) sleep until there is work or a deadline.
///
/// `@unchecked Sendable`: the mutex and condition live at fixed heap addresses for the
/// object's lifetime and are only used through pthread calls, which are thread-safe.
final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Runs `body` holding the mutex. Never call a blocking function inside.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits, holding the mutex (call it inside ``withLock(_:)``), until ``broadcast()`` or
    /// `deadline` (`CLOCK_MONOTONIC` nanoseconds; nil: no deadline). Wakes spuriously too:
    /// callers re-check their condition. Wraps `pthread_cond_timedwait`.
    func wait(until deadline: UInt64?) {
        guard let deadline else {
            pthread_cond_wait(condition, mutex)
            return
        }
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        pthread_cond_timedwait(condition, mutex, &time)
    }

    /// Wakes every waiter. Call it holding the mutex or not.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
