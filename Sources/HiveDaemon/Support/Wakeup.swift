import CLinux
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Wakes one of the daemon's threads out of `poll(2)` from any thread, without blocking:
/// an `eventfd`, written at most once until the thread drains it, so a burst of wake-ups
/// costs one `write(2)`. The control socket's thread, the sleep watch and the memory
/// pressure watch each poll one.
final class Wakeup: Sendable {
    /// The descriptor to poll for `POLLIN`.
    let fileDescriptor: Int32
    private let pending = Atomic<Bool>(false)

    /// A wakeup, or `nil` when no descriptor can be made (the process is out of them).
    init?() {
        let descriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        fileDescriptor = descriptor
    }

    deinit {
        close(fileDescriptor)
    }

    /// Makes ``fileDescriptor`` readable; never blocks.
    func signal() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        _ = write(fileDescriptor, &one, 8)
    }

    /// Called by the polling thread before it looks at what it was woken for: resets the
    /// descriptor, then lets the next ``signal()`` write again. (In the other order a
    /// wake-up between the two would be read while its flag stayed set, and every later
    /// one would be skipped.)
    func drain() {
        var count: UInt64 = 0
        _ = read(fileDescriptor, &count, 8)
        pending.store(false, ordering: .sequentiallyConsistent)
    }
}
