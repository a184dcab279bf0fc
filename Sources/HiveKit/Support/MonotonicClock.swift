#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `CLOCK_MONOTONIC` read directly: the cheapest clock for timing handler calls, and the
/// clock systemd's `MONOTONIC_USEC=` expects.
package enum MonotonicClock {
    /// Nanoseconds since an arbitrary point fixed at boot. Wraps `clock_gettime(CLOCK_MONOTONIC)`.
    @inline(__always)
    package static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Microseconds, as `MONOTONIC_USEC=` wants them.
    package static func microseconds() -> UInt64 { nanoseconds() / 1_000 }
}
