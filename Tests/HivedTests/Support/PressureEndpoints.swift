import Foundation
import TestSupport

/// The writing end of a FIFO hived watches, opened once hived reads it.
final class FifoWriter: Sendable {
    let fd: Int32

    init(_ path: String) throws {
        fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw TestFailure("cannot open \(path) for writing: errno \(errno)") }
    }

    deinit { close(fd) }

    func write(_ text: String) {
        var text = text
        _ = text.withUTF8 { Glibc.write(fd, $0.baseAddress, $0.count) }
    }
}

/// A listening Unix stream socket in a test's directory, standing in for the service
/// manager's end of a memory pressure socket.
final class UnixListener: Sendable {
    let path: String
    private let fd: Int32

    init(_ path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = UnixAddress.with(path) { bind(fd, $0, $1) }
        guard fd >= 0, bound == 0, listen(fd, 4) == 0 else { throw TestFailure("cannot listen on \(path): errno \(errno)") }
    }

    deinit { close(fd) }

    /// Waits for hived to connect.
    func accept(timeout: Duration = .seconds(20)) async throws -> Connection {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let client = Glibc.accept(fd, nil, nil)
            if client >= 0 {
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                return Connection(fd: client)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("nobody connected to \(path)")
    }

    /// One accepted connection.
    final class Connection: Sendable {
        let fd: Int32
        init(fd: Int32) { self.fd = fd }
        deinit { close(fd) }

        /// Reads until `count` bytes arrived (the socket is non-blocking: polled).
        func read(count: Int, timeout: Duration = .seconds(20)) async throws -> String {
            var bytes: [UInt8] = []
            let deadline = ContinuousClock.now + timeout
            while bytes.count < count, ContinuousClock.now < deadline {
                var buffer = [UInt8](repeating: 0, count: count - bytes.count)
                let got = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if got > 0 { bytes += buffer[..<got] } else { try await Task.sleep(for: .milliseconds(10)) }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        func write(_ text: String) {
            var text = text
            _ = text.withUTF8 { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }
}
