import HiveKit
#if canImport(Glibc)
import Glibc
#endif

extension SystemdNotifier {
    /// Sends `message` from the calling thread, as one non-blocking datagram to
    /// `NOTIFY_SOCKET`, if nothing is queued before it; otherwise, or if the datagram
    /// cannot go at once (the receiver's queue is full, an address other than a path or
    /// an abstract `@name`), queues it as ``send(_:)`` does. Returns whether it went out
    /// here. For the stop guard's report, after which the process ends: on a loaded
    /// machine the writer thread may wake too late to send it.
    ///
    /// libsystemd's `sd_notify` cannot be asked not to block, so this one datagram is sent
    /// by hand: the same text, no credentials or descriptors (systemd takes the sender's
    /// from the kernel).
    @discardableResult
    func sendNow(_ message: NotifyMessage) -> Bool {
        guard isEnabled else { return false }
        return writer.deliverOrEnqueue(message) { [socketPath] message in
            message.descriptors.isEmpty && Self.sendWithoutBlocking(message.text, to: socketPath)
        }
    }

    /// Whether the writer thread has been in one `sd_notify` since before `instant`
    /// (`CLOCK_MONOTONIC` nanoseconds): systemd does not read.
    func isBlocked(since instant: UInt64) -> Bool {
        writer.isBlocked(since: instant)
    }

    /// Sends `text` as one datagram to `path` (`/…`, or `@…` for the abstract namespace)
    /// with `MSG_DONTWAIT`; false if it did not go.
    private static func sendWithoutBlocking(_ text: String, to path: String) -> Bool {
        guard var address = UnixAddress(notifySocket: path) else { return false }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var text = text
        let sent = text.withUTF8 { address.send(descriptor, UnsafeRawBufferPointer($0), flags: Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        return sent == text.utf8.count
    }
}
