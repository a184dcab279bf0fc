import HiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole lines to stderr with `write(2)`, unbuffered.
///
/// One `write` per line: on a pipe or the journal's stream socket a line under `PIPE_BUF`
/// arrives whole even when several threads log at once, with no lock of ours.
enum StderrWriter {
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return  // stderr closed or full: nothing sensible left to do
                }
            }
        }
    }
}
