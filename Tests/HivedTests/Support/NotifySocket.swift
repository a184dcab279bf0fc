import Foundation
import Synchronization
import TestSupport

/// A datagram socket standing in for systemd's notification socket: hived under test
/// gets its path as `NOTIFY_SOCKET`, and every datagram it sends is collected with the
/// time the kernel queued it (`SO_TIMESTAMPNS`), so intervals between pings are measured
/// exactly however late this process reads them.
///
/// After hived exited, ``drain()`` makes sure every datagram it sent has been read.
final class NotifySocket: Sendable {
    /// One datagram and when the kernel received it.
    struct Datagram: Sendable {
        let text: String
        /// `CLOCK_REALTIME` when the datagram was queued on the socket.
        let received: Duration
    }

    let path: String
    private let descriptor: Int32
    private let received = Received()

    /// The datagrams, shared with the reader thread.
    private final class Received: Sendable {
        let datagrams = Mutex<[Datagram]>([])
        /// The drain markers the reader has seen (see ``NotifySocket/drain(timeout:)``).
        let markers = Mutex<Set<String>>([])
    }

    /// What ``drain(timeout:)`` sends to itself; the reader keeps it out of the messages.
    private static let markerPrefix = "HIVED_TEST_DRAIN="

    init(directory: String) throws {
        path = directory + "/notify.sock"
        descriptor = try UnixAddress.boundDatagramSocket(path)
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_TIMESTAMPNS, &on, socklen_t(MemoryLayout<Int32>.size))
        let fd = descriptor
        // The reader thread owns the descriptor: it closes it when `deinit`'s shutdown ends
        // its `recvmsg`, so the number cannot be reused (by another test's socket) while
        // the thread still reads from it.
        let thread = Thread { [received] in
            while let datagram = Self.receive(fd) {
                if datagram.text.hasPrefix(Self.markerPrefix) {
                    _ = received.markers.withLock { $0.insert(datagram.text) }
                } else {
                    received.datagrams.withLock { $0.append(datagram) }
                }
            }
            close(fd)
        }
        thread.start()
    }

    deinit { shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Every datagram so far, in arrival order.
    var datagrams: [Datagram] { received.datagrams.withLock { $0 } }

    /// Every datagram's text so far, in arrival order.
    var messages: [String] { datagrams.map(\.text) }

    /// The datagrams so far, with `WATCHDOG=1` and `EXTEND_TIMEOUT_USEC` pings left out.
    var stateMessages: [String] {
        messages.filter { !$0.hasPrefix("WATCHDOG=1") && !$0.hasPrefix("EXTEND_TIMEOUT_USEC=") }
    }

    /// Waits until every datagram sent to the socket before this call has been read: it
    /// sends a marker to itself and waits for the reader to reach it (a socket's queue is
    /// first in, first out). Call it once hived has exited to see its last notifications.
    func drain(timeout: Duration = .seconds(20)) async throws {
        let marker = Self.markerPrefix + UUID().uuidString
        let sender = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard sender >= 0 else { throw POSIXError(.init(rawValue: errno)!) }
        defer { close(sender) }
        try await waitUntil("the notify socket to take the drain marker", timeout: timeout) {
            let sent = UnixAddress.with(path) { target, length in
                marker.withCString { sendto(sender, $0, strlen($0), Int32(MSG_DONTWAIT), target, length) }
            }
            guard sent >= 0 else {
                if errno == EAGAIN || errno == EINTR { return false }
                throw POSIXError(.init(rawValue: errno)!)
            }
            return true
        }
        try await waitUntil("the notify reader to reach the drain marker", timeout: timeout) {
            received.markers.withLock { $0.contains(marker) }
        }
    }

    /// Waits until a datagram satisfying `predicate` has arrived after the first `skip`
    /// ones; returns its index, or fails after `timeout`.
    @discardableResult
    func waitFor(
        after skip: Int = 0, timeout: Duration = .seconds(20),
        _ what: String, where predicate: (String) -> Bool
    ) async throws -> Int {
        var found: Int?
        try await waitUntil(what, timeout: timeout, detail: { "got \(self.messages)" }) {
            let all = messages
            found = all.count > skip ? all[skip...].firstIndex(where: predicate) : nil
            return found != nil
        }
        return found!
    }

    /// Waits until `n` messages starting with `prefix` have arrived; returns them.
    @discardableResult
    func waitForCount(_ n: Int, startingWith prefix: String, timeout: Duration = .seconds(20)) async throws -> [String] {
        var matching: [String] = []
        try await waitUntil("\(n)× \(prefix)", timeout: timeout, detail: { "got \(self.messages)" }) {
            matching = messages.filter { $0.hasPrefix(prefix) }
            return matching.count >= n
        }
        return matching
    }

    /// How many messages so far start with `prefix`.
    func count(startingWith prefix: String) -> Int {
        messages.filter { $0.hasPrefix(prefix) }.count
    }

    /// Reads one datagram and its `SCM_TIMESTAMPNS` time; nil once the socket is shut down.
    private static func receive(_ fd: Int32) -> Datagram? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        // cmsghdr (16 bytes on 64-bit Linux) followed by a timespec, with room to spare.
        var control = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { data in
                control.withUnsafeMutableBytes { controlBytes in
                    var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                    return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                        var header = msghdr()
                        header.msg_iov = vectorPointer
                        header.msg_iovlen = 1
                        header.msg_control = controlBytes.baseAddress
                        header.msg_controllen = controlBytes.count
                        return recvmsg(fd, &header, 0)
                    }
                }
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            let text = String(decoding: buffer[0..<count], as: UTF8.self)
            return Datagram(text: text, received: timestamp(in: control) ?? realtimeNow())
        }
    }

    /// The `SCM_TIMESTAMPNS` value among the control messages in `control`.
    private static func timestamp(in control: [UInt8]) -> Duration? {
        let headerSize = MemoryLayout<cmsghdr>.stride
        var offset = 0
        return control.withUnsafeBytes { bytes -> Duration? in
            while offset + headerSize <= bytes.count {
                let header = bytes.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
                let length = Int(header.cmsg_len)
                guard length >= headerSize, offset + length <= bytes.count else { return nil }
                if header.cmsg_level == SOL_SOCKET && header.cmsg_type == SCM_TIMESTAMPNS {
                    let time = bytes.loadUnaligned(fromByteOffset: offset + headerSize, as: timespec.self)
                    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
                }
                offset += (length + 7) & ~7
            }
            return nil
        }
    }

    /// `CLOCK_REALTIME` now, the clock of ``Datagram/received``: take it just before
    /// `kill(2)` and compare it with the kernel's receive time of hived's last datagram to
    /// time a stop exactly, however late this process gets to look.
    static func realtimeNow() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }
}
