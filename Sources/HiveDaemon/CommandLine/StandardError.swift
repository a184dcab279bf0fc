#if canImport(Glibc)
import Glibc
#endif

/// stderr as a `TextOutputStream`, for `print(_:to:)`; each call is one unbuffered write.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        writeStandardError(string)
    }
}
