import HiveKit
import Logging
import Synchronization

/// Tells systemd about this service's state through `sd_notify(0, …)`.
///
/// With `NOTIFY_SOCKET` unset (not under systemd, or not `Type=notify`) every send is a
/// silent no-op that returns false, so a daemon behaves the same everywhere. A bad
/// `NOTIFY_SOCKET` (a missing path, a socket nobody reads) makes ``send(_:)`` return false
/// and log one warning for the notifier's lifetime, never crash.
///
/// `sd_notify` is always called with `unset_environment` = 0: unsetting `NOTIFY_SOCKET`
/// would make every later notification (`READY=1` after `RELOADING=1`, `WATCHDOG=1`) go
/// nowhere. Safe to call from any thread; a send is one `sendmsg(2)`, and sending
/// ``NotifyMessage/watchdog`` allocates nothing of ours.
public final class SystemdNotifier: Sendable {
    /// Whether systemd asked for notifications when this notifier was made
    /// (`NOTIFY_SOCKET` set and not empty). When false, ``send(_:)`` does nothing.
    public let isEnabled: Bool
    private let logger: Logger
    private let warned = Atomic<Bool>(false)

    /// Makes a notifier for the `NOTIFY_SOCKET` in `environment`.
    ///
    /// `sd_notify` itself reads `NOTIFY_SOCKET` from the live process environment, so
    /// leave it set: keep it out of child processes with
    /// ``SystemdEnvironment/childEnvironment(from:)`` instead.
    ///
    /// - Parameters:
    ///   - environment: the variables captured at the top of `main`.
    ///   - logger: where the one warning about a failing socket goes.
    public init(environment: SystemdEnvironment, logger: Logger = Logger(label: "HiveDaemon")) {
        self.isEnabled = environment.notificationsEnabled
        self.logger = logger
    }

    /// Sends `message`; returns whether systemd's socket took it.
    ///
    /// Returns false without a word when notifications are off. When `sd_notify` fails, the
    /// first failure is logged as a warning (naming `NOTIFY_SOCKET`'s errno) and later ones
    /// are silent; the daemon carries on either way.
    @discardableResult
    public func send(_ message: NotifyMessage) -> Bool {
        do {
            return try trySend(message)
        } catch {
            if !warned.exchange(true, ordering: .relaxed) {
                logger.warning(
                    "cannot notify systemd; further notification failures are not logged",
                    metadata: ["module": "systemd", "error": "\(error)", "notification": "\(message.text)"])
            }
            return false
        }
    }

    /// Sends `message` and reports a failure as an error instead of logging it.
    ///
    /// - Returns: true if sent; false if notifications are off (no `NOTIFY_SOCKET`).
    /// - Throws: ``SystemdError`` from `sd_notify` (e.g. `ENOENT` for a missing socket path).
    @discardableResult
    public func trySend(_ message: NotifyMessage) throws(SystemdError) -> Bool {
        guard isEnabled else { return false }
        return try SystemdError.check(SystemdCalls.notify(message.text), "sd_notify") > 0
    }
}
