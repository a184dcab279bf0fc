import HiveKit
import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The only caller of libsystemd in HiveKit: every C call goes through here, so the rest
/// speaks Swift types and a test can see at a glance what reaches the C library.
enum SystemdCalls {
    /// Sends `state` to `$NOTIFY_SOCKET`. Returns > 0 when sent, 0 when `NOTIFY_SOCKET` is
    /// unset, `-errno` on failure. Wraps `sd_notify(0, state)`: `unset_environment` is
    /// always 0, so later notifications still find the socket.
    static func notify(_ state: String) -> Int32 {
        state.withCString { sd_notify(0, $0) }
    }

    /// The watchdog interval in microseconds if the watchdog is on for this process
    /// (`WATCHDOG_USEC` set and `WATCHDOG_PID`, if set, ours), 0 if off, `-errno` if the
    /// variables are malformed. Wraps `sd_watchdog_enabled(0, &usec)`.
    static func watchdogEnabled() -> (result: Int32, microseconds: UInt64) {
        var usec: UInt64 = 0
        let result = sd_watchdog_enabled(0, &usec)
        return (result, usec)
    }

    /// Writes one journal entry made of `fields` (each `NAME=value`). Returns 0 or `-errno`
    /// (e.g. `-ENOENT` when no journald listens). Wraps `sd_journal_sendv`, which needs no
    /// shim: only its `CODE_FILE`/`CODE_LINE` macro does not import, and the caller adds
    /// those fields itself.
    static func journalSend(_ fields: [String]) -> Int32 {
        // One contiguous buffer holds every field; the iovecs point into it.
        var bytes = [UInt8]()
        bytes.reserveCapacity(fields.reduce(0) { $0 + $1.utf8.count })
        var spans = [(offset: Int, count: Int)]()
        spans.reserveCapacity(fields.count)
        for field in fields {
            let offset = bytes.count
            bytes.append(contentsOf: field.utf8)
            spans.append((offset, bytes.count - offset))
        }
        return bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return -EINVAL }
            let vectors = spans.map { iovec(iov_base: base + $0.offset, iov_len: $0.count) }
            return vectors.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) }
        }
    }
}
