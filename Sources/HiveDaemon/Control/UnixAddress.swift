#if canImport(Glibc)
import Glibc
#endif

/// A `sockaddr_un` for a filesystem path.
struct UnixAddress {
    private var address = sockaddr_un()

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

    /// `bind(2)`; returns its result (errno is set on failure).
    mutating func bind(_ descriptor: Int32) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// `connect(2)`; returns its result (errno is set on failure).
    mutating func connect(_ descriptor: Int32) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}
