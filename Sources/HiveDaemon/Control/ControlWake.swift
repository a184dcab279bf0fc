#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Wakes the control socket's thread from any thread: a non-blocking self-pipe, written
/// at most once until the thread drains it, so a burst of wake-ups costs one `write(2)`.
final class ControlWake: Sendable {
    /// The end the I/O thread polls.
    let readEnd: Int32
    private let writeEnd: Int32
    private let pending = Atomic<Bool>(false)

    /// A new pipe; `nil` if the process is out of descriptors.
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Makes the thread's next `poll` return; never blocks.
    func wake() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Called by the thread before it looks at what it was woken for: empties the pipe,
    /// then lets the next ``wake()`` write again. (In the other order a byte written
    /// between the two would be read while its flag stayed set, and every later wake-up
    /// would be skipped.)
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
        pending.store(false, ordering: .sequentiallyConsistent)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
