import Foundation

/// Stream sockets for the echo-server tests: a Unix listener to pass to hived, and a
/// client (over a Unix socket, or TCP on the loopback) that sends lines and reads them
/// back, with a timeout so a broken test fails. TCP ports are picked free by the kernel,
/// never fixed (several copies of a suite may run at once).
public enum LineSocket {
    /// A listening Unix socket at `path`.
    public static func listen(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        let bound = UnixAddress.with(path) { bind(fd, $0, $1) }
        guard bound == 0, Foundation.listen(fd, 16) == 0 else {
            close(fd)
            throw TestFailure("bind/listen \(path): errno \(errno)")
        }
        return fd
    }

    /// A client connected to the Unix socket at `path`, whose reads and writes give up
    /// after `timeout`.
    public static func connect(to path: String, timeout: Duration = .seconds(10)) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        setTimeout(timeout, on: fd)
        guard UnixAddress.with(path, { Foundation.connect(fd, $0, $1) }) == 0 else {
            let code = errno
            close(fd)
            throw TestFailure("connect \(path): errno \(code)")
        }
        return fd
    }

    /// A client connected to 127.0.0.1:`port`, whose reads and writes give up after
    /// `timeout`, or the `errno` of the failed connect.
    public static func connect(port: UInt16, timeout: Duration = .seconds(15)) -> Result<Int32, POSIXError> {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
        setTimeout(timeout, on: fd)
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            return .failure(POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
        }
        return .success(fd)
    }

    /// A loopback port that was free a moment ago (bound to port 0, then released).
    public static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw TestFailure("bind 127.0.0.1:0: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Sends `line` and a newline, then reads until a newline comes back; returns what came
    /// back without it (nil on end of file, an error or the timeout).
    public static func echo(_ line: String, on fd: Int32) -> String? {
        let bytes = Array((line + "\n").utf8)
        guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !received.contains(UInt8(ascii: "\n")) {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received += buffer[..<count]
        }
        return String(decoding: received.dropLast(), as: UTF8.self)
    }

    /// Whether the peer closed `fd`: a read sees end of file (or a reset) within the
    /// client's timeout.
    public static func isClosedByPeer(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    /// The inode of the socket `fd` is open on.
    public static func inode(of fd: Int32) -> UInt64 {
        var info = stat()
        fstat(fd, &info)
        return UInt64(info.st_ino)
    }

    /// Makes reads and writes on `fd` give up after `timeout`.
    private static func setTimeout(_ timeout: Duration, on fd: Int32) {
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// 127.0.0.1:`port`.
    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
