#if canImport(Glibc)
import Glibc
#endif

/// A `sockaddr_un` for a filesystem path, or for a name in the abstract namespace.
struct UnixAddress {
    private var address = sockaddr_un()
    /// The address's length: the whole structure for a path; for an abstract name, up to
    /// its last byte (the kernel counts every byte of it, zeros included).
    private var length = socklen_t(MemoryLayout<sockaddr_un>.size)

    /// The address of `path`; `nil` when the path does not fit `sun_path` (107 bytes).
    init?(_ path: String) {
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    /// The address `NOTIFY_SOCKET` names: a path (`/…`), or `@name` in the abstract
    /// namespace; `nil` for anything else, or a name that does not fit.
    init?(notifySocket value: String) {
        guard value.hasPrefix("@") else {
            guard value.hasPrefix("/") else { return nil }
            self.init(value)
            return
        }
        var bytes = Array(value.utf8)
        bytes[0] = 0
        var address = sockaddr_un()
        guard bytes.count <= MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        self.init(address: address, length: socklen_t(MemoryLayout<sa_family_t>.size + bytes.count))
    }

    private init(address: sockaddr_un, length: socklen_t) {
        self.address = address
        self.length = length
    }

    /// `sendto(2)` of `bytes` on `descriptor` with `flags`; returns its result.
    mutating func send(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, flags: Int32) -> Int {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.sendto(descriptor, bytes.baseAddress, bytes.count, flags, $0, length)
            }
        }
    }

    /// `bind(2)`; returns its result (errno is set on failure).
    mutating func bind(_ descriptor: Int32) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, length)
            }
        }
    }

    /// `connect(2)`; returns its result (errno is set on failure).
    mutating func connect(_ descriptor: Int32) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, length)
            }
        }
    }
}
