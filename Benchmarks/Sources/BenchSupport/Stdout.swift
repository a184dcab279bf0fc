#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Flushes standard output, so rows appear as they are measured even through a pipe.
public func fflushStdout() {
    fflush(nil)  // every output stream: `stdout` itself is a global var Swift 6 refuses
}

/// Prints `message` on standard error (progress that must not end up in the table).
public func log(_ message: String) {
    let line = message + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
}
