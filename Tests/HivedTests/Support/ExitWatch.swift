import Foundation
import Synchronization
import TestSupport

/// Notes the instant a child process exits, on the clock of ``NotifySocket/realtimeNow()``
/// and of the notify socket's kernel receive times: a thread of its own waits in `poll` on
/// the child's pidfd (`pidfd_open(2)`), which the kernel makes readable at the exit. Unlike
/// polling `isRunning` from a task of a busy test process (5 ms apart at best, and much
/// later when the cooperative pool is busy), the only lateness is the thread's wake-up.
final class ExitWatch: Sendable {
    private let exited = Mutex<Duration?>(nil)
    private let pid: pid_t
    /// glibc's `pidfd_open` (2.36 and later), which Swift's Glibc module does not import
    /// (nor `syscall`, which is variadic).
    private static let pidfdOpen: (@convention(c) (pid_t, UInt32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pid_t, UInt32) -> Int32).self)
    }()

    /// Watches `pid`, which must not have been reaped yet: open the watch before signalling.
    init(_ pid: pid_t) throws {
        guard let pidfdOpen = Self.pidfdOpen else { throw TestFailure("this C library has no pidfd_open") }
        let descriptor = pidfdOpen(pid, 0)
        guard descriptor >= 0 else { throw TestFailure("pidfd_open(\(pid)): \(String(cString: strerror(errno)))") }
        self.pid = pid
        let thread = Thread { [self] in
            // A real-time thread (allowed as root; otherwise it stays as it was) wakes at
            // once however many threads want a CPU, so its lateness is not the test's noise.
            var parameters = sched_param(sched_priority: 10)
            _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&entry, 1, -1) < 0 && errno == EINTR {}
            let now = NotifySocket.realtimeNow()
            exited.withLock { $0 = now }
            close(descriptor)
        }
        thread.start()
    }

    /// When the process exited; fails (and kills it, which ends the watch) after `timeout`.
    func time(timeout: Duration) async throws -> Duration {
        var seen: Duration?
        do {
            try await waitUntil("process \(pid) to exit", timeout: timeout) {
                seen = exited.withLock { $0 }
                return seen != nil
            }
        } catch {
            kill(pid, SIGKILL)
            throw error
        }
        return seen!
    }
}

extension HivedProcess {
    /// Sends `signal` and returns two instants on ``NotifySocket/realtimeNow()``'s clock:
    /// just before `kill(2)`, and the exit as the process's pidfd showed it (see
    /// ``ExitWatch``). Measure anything else against `sent` too: the watch's thread starts
    /// before it, and that takes time on a loaded machine. Fails, killing the process,
    /// after `timeout`.
    func watchExit(after signal: Int32, timeout: Duration) async throws -> (sent: Duration, exited: Duration) {
        let watch = try ExitWatch(pid)
        let sent = NotifySocket.realtimeNow()
        self.signal(signal)
        return (sent, try await watch.time(timeout: timeout))
    }

    /// Sends `signal` and returns how long the process took to exit (see ``watchExit(after:timeout:)``).
    func timeExit(after signal: Int32, timeout: Duration) async throws -> Duration {
        let (sent, exited) = try await watchExit(after: signal, timeout: timeout)
        return exited - sent
    }
}
