import Foundation
import TestSupport

/// Unix stream sockets for the echo-server tests: a listener to pass to hived, and a
/// client that sends lines and reads them back, with a timeout so a broken test fails.
enum LineSocket {
    /// A listening Unix socket at `path`.
    static func listen(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        let bound = UnixAddress.with(path) { bind(fd, $0, $1) }
        guard bound == 0, Foundation.listen(fd, 16) == 0 else {
            close(fd)
            throw TestFailure("bind/listen \(path): errno \(errno)")
        }
        return fd
    }

    /// A client connected to `path`, with a 10 s receive timeout.
    static func connect(to path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard UnixAddress.with(path, { Foundation.connect(fd, $0, $1) }) == 0 else {
            let code = errno
            close(fd)
            throw TestFailure("connect \(path): errno \(code)")
        }
        return fd
    }

    /// Sends `line` and a newline, then reads until a newline comes back; returns what came
    /// back without it (nil on end of file or timeout).
    static func echo(_ line: String, on fd: Int32) -> String? {
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

    /// Whether the peer closed `fd` (a read returns end of file within 10 s).
    static func isClosedByPeer(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }

    /// The inode of the socket `fd` is open on.
    static func inode(of fd: Int32) -> UInt64 {
        var info = stat()
        fstat(fd, &info)
        return UInt64(info.st_ino)
    }
}
