import HiveKit

#if canImport(Glibc)
import Glibc
#endif

extension SystemdNotifier {
    /// Queues `message` with duplicates of `descriptors` attached (`FDSTORE=1`…); never
    /// blocks. The writer thread sends them with `sd_pid_notify_with_fds` in order with
    /// every other message, then closes the duplicates; the caller keeps its own.
    ///
    /// - Returns: false when notifications are off (no `NOTIFY_SOCKET`), true once queued.
    /// - Throws: ``SystemdError`` (`fcntl`) when a descriptor cannot be duplicated (it is
    ///   closed, or the process is out of descriptors); nothing is queued then.
    @discardableResult
    func send(_ message: NotifyMessage, descriptors: [Int32]) throws(SystemdError) -> Bool {
        guard isEnabled else { return false }
        var message = message
        for descriptor in descriptors {
            let duplicate = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
            guard duplicate >= 0 else {
                let code = errno
                message.descriptors.forEach { close($0) }
                throw SystemdError(function: "fcntl(F_DUPFD_CLOEXEC)", errno: code)
            }
            message.descriptors.append(duplicate)
        }
        return send(message)
    }

    /// Sends one queued message on the writer thread (`sd_notify`, or
    /// `sd_pid_notify_with_fds` when it carries descriptors, which are closed afterwards).
    static func deliver(_ message: NotifyMessage) throws(SystemdError) {
        guard !message.descriptors.isEmpty else {
            try SystemdError.check(SystemdCalls.notify(message.text), "sd_notify")
            return
        }
        defer { message.descriptors.forEach { close($0) } }
        try SystemdError.check(
            SystemdCalls.notify(message.text, descriptors: message.descriptors), "sd_pid_notify_with_fds")
    }
}
