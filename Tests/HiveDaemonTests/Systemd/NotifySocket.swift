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
    private var controlLength = 0

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

    /// The next datagram's text and the descriptors passed with it (`SCM_RIGHTS`, now open
    /// in this process: close them), or nil if none arrives within the timeout.
    func receiveWithDescriptors() -> (text: String, descriptors: [Int32])? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var control = [UInt64](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { bytes in
            control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: bytes.baseAddress, iov_len: bytes.count)
                return withUnsafeMutablePointer(to: &vector) { vector in
                    var message = msghdr()
                    message.msg_iov = vector
                    message.msg_iovlen = 1
                    message.msg_control = controlBytes.baseAddress
                    message.msg_controllen = controlBytes.count
                    let count = recvmsg(descriptor, &message, Int32(MSG_CMSG_CLOEXEC))
                    controlLength = Int(message.msg_controllen)
                    return count
                }
            }
        }
        guard count >= 0 else { return nil }
        var descriptors: [Int32] = []
        control.withUnsafeBytes { raw in
            // struct cmsghdr: size_t cmsg_len, int cmsg_level, int cmsg_type, then the data.
            let header = MemoryLayout<Int>.size + 2 * MemoryLayout<Int32>.size
            var offset = 0
            while offset + header <= controlLength {
                let length = raw.load(fromByteOffset: offset, as: Int.self)
                let level = raw.load(fromByteOffset: offset + MemoryLayout<Int>.size, as: Int32.self)
                let type = raw.load(fromByteOffset: offset + MemoryLayout<Int>.size + 4, as: Int32.self)
                guard length >= header else { break }
                if level == SOL_SOCKET, type == Int32(SCM_RIGHTS) {
                    for index in 0..<(length - header) / 4 {
                        descriptors.append(raw.load(fromByteOffset: offset + header + 4 * index, as: Int32.self))
                    }
                }
                offset += (length + 7) & ~7
            }
        }
        return (String(decoding: buffer[..<count], as: UTF8.self), descriptors)
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
