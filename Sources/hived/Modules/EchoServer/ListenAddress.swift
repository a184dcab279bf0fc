#if canImport(Glibc)
import Glibc
#endif

/// Where the `echo-server` listens when it opens its own socket (`listen:`): a numeric
/// TCP address, `127.0.0.1:7070` or `[::1]:7070` (port 0: any free port), or a Unix socket
/// path, `/run/hived/echo.sock`.
enum ListenAddress: Sendable, Hashable, CustomStringConvertible {
    case ipv4(in_addr_t, port: UInt16)
    case ipv6(host: [UInt8], port: UInt16)
    case unix(path: String)

    /// Parses `HOST:PORT` (numeric IPv4, or IPv6 in brackets) or an absolute path; nil for
    /// anything else.
    init?(parsing text: String) {
        if text.hasPrefix("/") {
            guard text.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else { return nil }
            self = .unix(path: text)
            return
        }
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            return nil
        }
        let host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &address) == 1 else { return nil }
            self = .ipv6(host: withUnsafeBytes(of: address) { Array($0) }, port: port)
        } else {
            var address = in_addr()
            guard inet_pton(AF_INET, host, &address) == 1 else { return nil }
            self = .ipv4(address.s_addr, port: port)
        }
    }

    var description: String {
        switch self {
        case .ipv4(let host, let port):
            var address = in_addr(s_addr: host)
            return Self.text(AF_INET, &address) + ":\(port)"
        case .ipv6(let host, let port):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: host) }
            return "[" + Self.text(AF_INET6, &address) + "]:\(port)"
        case .unix(let path):
            return path
        }
    }

    /// Opens a non-blocking listening socket here. A Unix path that names a stale socket
    /// is replaced.
    ///
    /// - Throws: ``SocketError`` naming the call and this address.
    func listen() throws(SocketError) -> Int32 {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket", for: description) }
        do throws(SocketError) {
            if case .unix(let path) = self {
                var info = stat()
                if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
            } else {
                var on: Int32 = 1
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            }
            let bound = withSocketAddress { bind(fd, $0, $1) }
            guard bound == 0 else { throw SocketError("bind", for: description) }
            guard Glibc.listen(fd, SOMAXCONN) == 0 else { throw SocketError("listen", for: description) }
            return fd
        } catch {
            close(fd)
            throw error
        }
    }

    /// Whether `fd` is a socket listening at this address (a port of 0 matches any port).
    func isListening(on fd: Int32) -> Bool {
        var accepting: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0, accepting != 0,
            let bound = ListenAddress(boundTo: fd)
        else { return false }
        switch (self, bound) {
        case (.ipv4(let host, let port), .ipv4(let boundHost, let boundPort)):
            return host == boundHost && (port == 0 || port == boundPort)
        case (.ipv6(let host, let port), .ipv6(let boundHost, let boundPort)):
            return host == boundHost && (port == 0 || port == boundPort)
        case (.unix(let path), .unix(let boundPath)):
            var info = stat()
            return path == boundPath && lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
        default:
            return false
        }
    }

    /// The address `fd` is bound to (`getsockname`), if it is one of the kinds above.
    init?(boundTo fd: Int32) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            let address = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }
            self = .ipv4(address.sin_addr.s_addr, port: UInt16(bigEndian: address.sin_port))
        case AF_INET6:
            let address = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }
            self = .ipv6(host: withUnsafeBytes(of: address.sin6_addr) { Array($0) }, port: UInt16(bigEndian: address.sin6_port))
        case AF_UNIX:
            let path = withUnsafeBytes(of: storage) { raw -> String in
                let offset = MemoryLayout<sa_family_t>.size
                let bytes = raw[offset..<min(Int(length), raw.count)].prefix { $0 != 0 }
                return String(decoding: bytes, as: UTF8.self)
            }
            self = .unix(path: path)
        default:
            return nil
        }
    }

    private var family: Int32 {
        switch self {
        case .ipv4: AF_INET
        case .ipv6: AF_INET6
        case .unix: AF_UNIX
        }
    }

    /// Calls `body` with this address as a `sockaddr` and its length.
    private func withSocketAddress<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        switch self {
        case .ipv4(let host, let port):
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = host
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .ipv6(let host, let port):
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: host) }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        case .unix(let path):
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: Array(path.utf8))
            }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
    }

    private static func text(_ family: Int32, _ address: UnsafeRawPointer) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        return buffer.withUnsafeMutableBufferPointer { buffer in
            guard let text = inet_ntop(family, address, buffer.baseAddress, socklen_t(buffer.count)) else { return "?" }
            return String(cString: text)
        }
    }
}
