import HiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A libsystemd call that failed: the C function's name and the `errno` it reported.
///
/// libsystemd returns `-errno` on failure; ``check(_:_:)`` is the one place that turns
/// such a return value into this error. `description` reads like `perror(3)`:
/// `sd_notify: Connection refused (errno 111)`.
struct SystemdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The libsystemd function that failed, e.g. `sd_notify`.
    let function: String
    /// The positive `errno` value the function reported (libsystemd returns its negation).
    let errno: Int32

    /// Makes an error for `function` failing with the positive `errno` value `errno`.
    init(function: String, errno: Int32) {
        self.function = function
        self.errno = errno
    }

    /// `strerror(3)`'s text for ``errno``.
    var reason: String { String(cString: strerror(errno)) }

    /// `function: reason (errno N)`.
    var description: String { "\(function): \(reason) (errno \(errno))" }

    /// Returns `result` when it is not negative; throws when it is a libsystemd `-errno`.
    ///
    /// - Parameters:
    ///   - result: what the libsystemd function returned.
    ///   - function: the C function's name, kept in the error.
    /// - Throws: ``SystemdError`` carrying `-result` as its ``errno``.
    @discardableResult
    static func check(_ result: Int32, _ function: String) throws(SystemdError) -> Int32 {
        if result < 0 { throw SystemdError(function: function, errno: -result) }
        return result
    }
}

/// A failed libsystemd call carries its `errno`, so hived can pass it on as `ERRNO=`.
extension SystemdError: ErrnoCarrying {}
