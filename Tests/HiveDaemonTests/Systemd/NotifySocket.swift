import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An AF_UNIX datagram socket bound in a fresh temporary directory: what systemd listens on
/// as `NOTIFY_SOCKET`, so tests can read the exact datagrams a notifier sends.
final class NotifySocket {
    let directory: String
    let path: String
    private let descriptor: Int32

    init() throws {
        let template = NSTemporaryDirectory() + "hivekit-notify-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard mkdtemp(&bytes) != nil else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        directory = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        path = directory + "/notify.sock"
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let utf8 = Array(path.utf8)
            precondition(utf8.count < raw.count, "socket path too long")
            raw.copyBytes(from: utf8)
            raw[utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        // Generous: a datagram already sent is there at once; this only bounds a test that broke.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next datagram's text, or nil if none arrives within the timeout.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Whether a datagram is waiting right now (does not wait).
    func hasPending() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1)
        return recv(descriptor, &buffer, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) >= 0
    }

    deinit {
        close(descriptor)
        unlink(path)
        rmdir(directory)
    }
}
