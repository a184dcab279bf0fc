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
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") || bytes.first == UInt8(ascii: "@") else { return false }
        let abstract = bytes[0] == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        // A path's length counts its terminating zero; an abstract name's does not.
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var text = text
        let sent = text.withUTF8 { data in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, data.baseAddress, data.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), $0, length)
                }
            }
        }
        return sent == text.utf8.count
    }
}
