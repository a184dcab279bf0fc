import HiveKit

#if canImport(Glibc)
import Glibc
#endif

/// A socket call that failed: the call, the address it concerned, and `errno`.
struct SocketError: Error, ErrnoCarrying, CustomStringConvertible {
    let call: String
    let address: String
    let errno: Int32

    /// Captures the current `errno` for `call` on `address`.
    init(_ call: String, for address: String) {
        self.call = call
        self.address = address
        self.errno = Glibc.errno
    }

    var description: String { "\(call) \(address): \(String(cString: strerror(errno))) (errno \(errno))" }
}
