import HiveKit
/// One `sd_notify` datagram: newline-separated `NAME=value` assignments.
///
/// Build it with the static members (``ready(status:)``, ``reloading(status:monotonicMicroseconds:)``,
/// ``stopping(status:)``, ``status(_:)``, ``watchdog``, ``extendTimeout(by:)``,
/// ``errno(_:status:)``) and join two with ``appending(_:)``. Everything in one message
/// reaches systemd together, which is what `RELOADING=1` + `MONOTONIC_USEC=` needs.
/// Status text is kept clean and short: control characters (a newline would end the
/// assignment) become spaces, and text past ``maximumStatusBytes`` is cut with `…`.
struct NotifyMessage: Sendable, Hashable, CustomStringConvertible {
    /// What a message does, for the notifier's queue: only the latest `WATCHDOG=1`,
    /// `STATUS=` or `EXTEND_TIMEOUT_USEC=` matters; state changes must all arrive, in order.
    enum Kind: Sendable, Hashable {
        /// `READY=1`, `RELOADING=1`, `STOPPING=1`, `ERRNO=`…: changes what systemd believes.
        case state
        /// Only `STATUS=`.
        case status
        /// Only `WATCHDOG=1`.
        case watchdog
        /// Only `EXTEND_TIMEOUT_USEC=`.
        case extendTimeout
    }

    /// The longest `STATUS=` assignment sent, `STATUS=` included, in UTF-8 bytes: 1 KiB.
    /// Longer text is cut and ends in `…`.
    static let maximumStatusBytes = 1024

    /// The datagram's text, exactly as sent, e.g. `READY=1\nSTATUS=running`.
    let text: String
    /// What the message does.
    let kind: Kind
    /// Descriptors sent with the datagram (`SCM_RIGHTS`, for `FDSTORE=1`): duplicates the
    /// message owns, closed by the notifier once sent. Empty for every other message.
    var descriptors: [Int32] = []

    /// A message of raw text; the caller keeps it to `NAME=value` lines.
    init(rawText: String) {
        self.text = rawText
        let lines = rawText.split(separator: "\n")
        if lines.allSatisfy({ $0.hasPrefix("STATUS=") }) {
            kind = .status
        } else if rawText == "WATCHDOG=1" {
            kind = .watchdog
        } else if lines.allSatisfy({ $0.hasPrefix("EXTEND_TIMEOUT_USEC=") }) {
            kind = .extendTimeout
        } else {
            kind = .state
        }
    }

    /// `READY=1`, then `STATUS=` if given: start-up (or a reload) finished.
    static func ready(status: String? = nil) -> NotifyMessage {
        NotifyMessage(rawText: "READY=1").appending(status: status)
    }

    /// `RELOADING=1` and `MONOTONIC_USEC=` in one datagram, then `STATUS=` if given.
    ///
    /// - Parameters:
    ///   - status: the `STATUS=` line to send with it, if any.
    ///   - monotonicMicroseconds: `CLOCK_MONOTONIC` in microseconds; defaults to now
    ///     (nil), which is what systemd expects: it matches the timestamp against the
    ///     moment it sent the reload signal.
    static func reloading(
        status: String? = nil,
        monotonicMicroseconds: UInt64? = nil
    ) -> NotifyMessage {
        let now = monotonicMicroseconds ?? MonotonicClock.microseconds()
        return NotifyMessage(rawText: "RELOADING=1\nMONOTONIC_USEC=\(now)").appending(status: status)
    }

    /// `STOPPING=1`, then `STATUS=` if given: the stop has begun.
    static func stopping(status: String? = nil) -> NotifyMessage {
        NotifyMessage(rawText: "STOPPING=1").appending(status: status)
    }

    /// `STATUS=text`: free text shown by `systemctl status`.
    static func status(_ text: String) -> NotifyMessage {
        NotifyMessage(rawText: "STATUS=" + sanitized(text))
    }

    /// `WATCHDOG=1`: the keep-alive ping. Built once; sending it allocates nothing.
    static let watchdog = NotifyMessage(rawText: "WATCHDOG=1")

    /// `EXTEND_TIMEOUT_USEC=`: asks systemd to wait `duration` more (from now) before it
    /// gives up on the current start, reload or stop. Rounded up to whole microseconds.
    static func extendTimeout(by duration: Duration) -> NotifyMessage {
        NotifyMessage(rawText: "EXTEND_TIMEOUT_USEC=\(microseconds(of: duration))")
    }

    /// `STATUS=` (if given) then `ERRNO=`: why the service failed, as an `errno` value.
    static func errno(_ code: Int32, status: String? = nil) -> NotifyMessage {
        let errno = NotifyMessage(rawText: "ERRNO=\(code)")
        guard let status else { return errno }
        return NotifyMessage.status(status).appending(errno)
    }

    /// This message followed by `other`, in one datagram.
    func appending(_ other: NotifyMessage) -> NotifyMessage {
        NotifyMessage(rawText: text + "\n" + other.text)
    }

    /// This message followed by `STATUS=status`; unchanged when `status` is nil.
    func appending(status: String?) -> NotifyMessage {
        guard let status else { return self }
        return appending(.status(status))
    }

    /// The datagram's text.
    var description: String { text }

    /// `status` with control characters turned into spaces and cut (ending in `…`) so that
    /// `STATUS=` and it take at most ``maximumStatusBytes``.
    static func sanitized(_ status: String) -> String {
        let room = maximumStatusBytes - "STATUS=".utf8.count
        let clean = status.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 })
            ? String(status.map { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : $0 })
            : status
        guard clean.utf8.count > room else { return clean }
        return clean.prefix(utf8Bytes: room - "…".utf8.count) + "…"
    }

    private static func microseconds(of duration: Duration) -> UInt64 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let fraction = (attoseconds + 999_999_999_999) / 1_000_000_000_000
        return UInt64(seconds) &* 1_000_000 &+ UInt64(fraction)
    }
}
