#if canImport(Glibc)
import Glibc
#endif

/// Wakes a watcher thread out of `poll(2)` from any thread, without blocking: one end of
/// a non-blocking socket pair is polled, the other written to.
final class Wakeup: Sendable {
    /// The end to poll for `POLLIN`.
    let fileDescriptor: Int32
    private let writer: Int32

    /// A wakeup, or `nil` when no socket pair can be made (out of descriptors).
    init?() {
        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else { return nil }
        fileDescriptor = pair[0]
        writer = pair[1]
    }

    deinit {
        close(fileDescriptor)
        close(writer)
    }

    /// Makes ``fileDescriptor`` readable; never blocks (a full buffer already wakes).
    func signal() {
        var byte: UInt8 = 1
        _ = send(writer, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
    }

    /// Reads what ``signal()`` wrote, so the next `poll` waits again.
    func drain() {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &buffer, { recv(fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
    }
}
