import Foundation

/// A path as a Unix socket address, for the tests' own sockets (bind, connect, sendto).
public enum UnixAddress {
    /// Runs `body` with `path` as a `sockaddr` and its length; a path too long for
    /// `sun_path` is cut to fit (the call then fails for the test to report).
    public static func with<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) rethrows -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return try withUnsafePointer(to: &address) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// A close-on-exec stream socket connected to `path` (blocking).
    public static func connectedStreamSocket(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
        guard with(path, { connect(descriptor, $0, $1) }) == 0 else {
            let code = errno
            close(descriptor)
            throw TestFailure("connect \(path): \(String(cString: strerror(code)))")
        }
        return descriptor
    }

    /// A close-on-exec datagram socket bound at `path`.
    public static func boundDatagramSocket(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
        guard with(path, { bind(descriptor, $0, $1) }) == 0 else {
            let code = errno
            close(descriptor)
            throw TestFailure("bind \(path): errno \(code)")
        }
        return descriptor
    }
}
