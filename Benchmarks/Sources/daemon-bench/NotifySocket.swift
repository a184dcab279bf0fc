import BenchSupport

#if canImport(Glibc)
import Glibc
#endif

/// The harness's end of `NOTIFY_SOCKET`: an `AF_UNIX` datagram socket bound to a path,
/// as systemd's own is, that the daemon under test sends `sd_notify` messages to.
final class NotifySocket {
    let path: String
    private let fd: Int32

    /// Binds a datagram socket at `path` (under 108 bytes).
    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonBenchError("socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw DaemonBenchError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        unlink(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { throw DaemonBenchError("bind \(path): errno \(errno)") }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Discards every message already queued.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) >= 0 {}
    }

    /// The next message and the monotonic time it was received, or `nil` after
    /// `timeoutMilliseconds` without one.
    func receive(timeoutMilliseconds: Int32) -> (text: String, at: UInt64)? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutMilliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        let at = Monotonic.now()
        guard count >= 0 else { return nil }
        return (String(decoding: buffer[0..<count], as: UTF8.self), at)
    }
}

/// A notification message's `KEY=VALUE` lines.
func fields(of message: String) -> [String: String] {
    var result: [String: String] = [:]
    for line in message.split(separator: "\n") {
        guard let equals = line.firstIndex(of: "=") else { continue }
        result[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return result
}
