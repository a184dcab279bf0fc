import Foundation

/// TCP on the loopback for the echo-server tests. The container shares this machine's
/// network, so the tests connect from here to what runs inside; ports are picked free
/// by the kernel, never fixed (several copies of the suite may run at once).
enum EchoClient {
    /// A loopback port that was free a moment ago (bound to port 0, then released).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SuiteFailure("socket: errno \(errno)") }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw SuiteFailure("bind 127.0.0.1:0: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// A client connected to 127.0.0.1:`port` with a 15 s receive timeout, or the `errno`
    /// of the failed connect.
    static func connect(port: UInt16) -> Result<Int32, POSIXError> {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
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

    /// Sends `line` and a newline, then reads until a newline comes back; returns what came
    /// back without it, or nil on end of file, an error or the timeout.
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

    /// Whether the server closed `fd`: a read sees end of file (or a reset) within the
    /// receive timeout.
    static func isClosedByPeer(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
