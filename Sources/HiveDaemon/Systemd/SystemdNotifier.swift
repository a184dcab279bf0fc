import HiveKit
import Logging
import Synchronization

/// Tells systemd about this service's state through `sd_notify(0, …)`, without ever making
/// the caller wait.
///
/// ``send(_:)`` queues the message and returns at once; a thread of the notifier's own
/// hands queued messages to `sd_notify` in order. `sd_notify` cannot be made non-blocking:
/// libsystemd opens a blocking datagram socket for each call and sends without
/// `MSG_DONTWAIT` or a timeout, so a receiver that stops reading (a busy PID 1; the queue
/// holds `net.unix.max_dgram_qlen` datagrams) blocks it. Only the writer thread waits then;
/// events, signals and the stop go on, and messages wait in a bounded queue
/// (`READY=1`, `RELOADING=1`, `STOPPING=1` kept in order and delivered once the receiver
/// reads again; `WATCHDOG=1` and `STATUS=` coalesced). ``flush(until:)`` waits, with a
/// deadline, for everything queued to be taken.
///
/// With `NOTIFY_SOCKET` unset (not under systemd, or not `Type=notify`) every send is a
/// silent no-op that returns false, so a daemon behaves the same everywhere. A failing
/// `sd_notify` (a missing path, a refused or oversized datagram) is logged as a warning
/// each time, at most once a second, with the number of failures in between.
///
/// `sd_notify` is always called with `unset_environment` = 0: unsetting `NOTIFY_SOCKET`
/// would make every later notification (`READY=1` after `RELOADING=1`, `WATCHDOG=1`) go
/// nowhere. Safe to call from any thread; queueing ``NotifyMessage/watchdog`` allocates
/// nothing of ours.
final class SystemdNotifier: Sendable {
    /// Whether systemd asked for notifications when this notifier was made
    /// (`NOTIFY_SOCKET` set and not empty). When false, ``send(_:)`` does nothing.
    let isEnabled: Bool
    let writer: OutputWriter<NotifyQueue>
    /// `NOTIFY_SOCKET`, for ``sendNow(_:)``; empty when notifications are off.
    let socketPath: String

    /// Makes a notifier for the `NOTIFY_SOCKET` in `environment`.
    ///
    /// `sd_notify` itself reads `NOTIFY_SOCKET` from the live process environment, so
    /// leave it set: keep it out of child processes with
    /// ``SystemdEnvironment/childEnvironment(from:)`` instead.
    ///
    /// - Parameters:
    ///   - environment: the variables captured at the top of `main`.
    ///   - logger: where warnings about failing notifications go.
    convenience init(environment: SystemdEnvironment, logger: Logger = Logger(label: "HiveDaemon")) {
        self.init(environment: environment, logger: logger, failureLogInterval: .seconds(1))
    }

    /// A notifier that logs a failure at most once per `failureLogInterval`.
    init(environment: SystemdEnvironment, logger: Logger, failureLogInterval: Duration) {
        self.isEnabled = environment.notificationsEnabled
        self.socketPath = environment.notifySocket ?? ""
        let failures = FailureLog(logger: logger, interval: failureLogInterval.nanosecondsClamped)
        writer = OutputWriter(name: "hive-notify", queue: NotifyQueue()) { message in
            do throws(SystemdError) {
                try Self.deliver(message)
            } catch {
                failures.log(error, message)
            }
        }
    }

    /// Queues `message` for systemd; never blocks.
    ///
    /// - Returns: false when notifications are off (no `NOTIFY_SOCKET`), true once queued.
    @discardableResult
    func send(_ message: NotifyMessage) -> Bool {
        guard isEnabled else { return false }
        writer.enqueue(message)
        return true
    }

    /// Waits until every message queued so far was taken by `sd_notify` (or failed), or
    /// until `deadline` (`CLOCK_MONOTONIC` nanoseconds). Returns whether the queue drained.
    @discardableResult
    func flush(until deadline: UInt64) -> Bool {
        writer.flush(until: deadline)
    }

    /// What is held up writing to `NOTIFY_SOCKET`, if anything: `writing to NOTIFY_SOCKET
    /// (2 notifications waiting, the first for 3.1s: STOPPING=1)`.
    var backlog: String? {
        guard let (waiting, first, since) = writer.backlog() else { return nil }
        let elapsed = Duration.nanoseconds(Int64(clamping: MonotonicClock.nanoseconds() &- since))
        let head = first.text.prefix { $0 != "\n" }
        return "writing to NOTIFY_SOCKET (\(waiting) notification\(waiting == 1 ? "" : "s") waiting, "
            + "the first for \(elapsed.shortDescription): \(head))"
    }

}

/// Logs failed notifications as warnings, at most once per interval, with the number of
/// failures in between.
private final class FailureLog: Sendable {
    private struct Counts {
        var lastLogged: UInt64 = 0
        var suppressed = 0
    }

    private let logger: Logger
    private let interval: UInt64
    private let counts = Mutex(Counts())

    init(logger: Logger, interval: UInt64) {
        self.logger = logger
        self.interval = interval
    }

    func log(_ error: SystemdError, _ message: NotifyMessage) {
        let now = MonotonicClock.nanoseconds()
        let suppressed = counts.withLock { counts -> Int? in
            guard counts.lastLogged == 0 || now &- counts.lastLogged >= interval else {
                counts.suppressed += 1
                return nil
            }
            counts.lastLogged = now
            defer { counts.suppressed = 0 }
            return counts.suppressed
        }
        guard let suppressed else { return }
        let head = String(message.text.prefix { $0 != "\n" })
        logger.warning(
            "cannot notify systemd\(suppressed > 0 ? " (\(suppressed) more failures not logged)" : "")",
            metadata: ["module": "systemd", "error": "\(error)", "notification": "\(head)"])
    }
}
