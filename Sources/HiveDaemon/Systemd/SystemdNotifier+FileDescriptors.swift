import HiveKit

#if canImport(Glibc)
import Glibc
#endif

extension SystemdNotifier {
    /// Sends `message` with `descriptors` attached (`FDSTORE=1`…), through
    /// `sd_pid_notify_with_fds`; the caller keeps its descriptors (the kernel passes
    /// duplicates).
    ///
    /// - Returns: true if sent; false if notifications are off (no `NOTIFY_SOCKET`).
    /// - Throws: ``SystemdError`` from `sd_pid_notify_with_fds`.
    @discardableResult
    public func trySend(_ message: NotifyMessage, descriptors: [Int32]) throws(SystemdError) -> Bool {
        guard isEnabled else { return false }
        return try SystemdError.check(
            SystemdCalls.notify(message.text, descriptors: descriptors), "sd_pid_notify_with_fds") > 0
    }
}
