#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `CLOCK_MONOTONIC` in nanoseconds: the only clock the benchmarks read.
public enum Monotonic {
    /// Nanoseconds since an arbitrary point fixed at boot. Wraps `clock_gettime(CLOCK_MONOTONIC)`.
    @inline(__always)
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
