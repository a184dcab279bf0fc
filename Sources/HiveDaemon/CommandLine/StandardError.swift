#if canImport(Glibc)
import Glibc
#endif

/// stderr as a `TextOutputStream`, for `print(_:to:)` in commands that are tools
/// (`check-config`): each call is written at once, waiting for the reader if need be, so
/// nothing is lost when the tool exits. The daemon queues its lines instead
/// (``StderrWriter``).
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        StderrWriter.writeNow(string)
    }
}
