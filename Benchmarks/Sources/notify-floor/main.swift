import CNotify

#if canImport(Glibc)
import Glibc
#endif

// The Swift floor: c/notify-ready.c in Swift, linked as hived's package links it
// (static Swift standard library, lld, packed relative relocations, no $ORIGIN run path).
// What any static Swift daemon pays before READY=1: the loader, the Swift runtime's
// start, libsystemd. SIGHUP answers RELOADING=1 with MONOTONIC_USEC, then READY=1;
// SIGTERM or SIGINT exits 0.

var signals = sigset_t()
sigemptyset(&signals)
for signal in [SIGHUP, SIGTERM, SIGINT] { sigaddset(&signals, signal) }
// Blocked before READY=1, so a signal right after it is not lost.
guard sigprocmask(SIG_BLOCK, &signals, nil) == 0 else { exit(1) }
sd_notify(0, "READY=1")
while true {
    var received: Int32 = 0
    guard sigwait(&signals, &received) == 0 else { exit(1) }
    guard received == SIGHUP else { exit(0) }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    sd_notify(0, "RELOADING=1\nMONOTONIC_USEC=\(microseconds)")
    sd_notify(0, "READY=1")
}
