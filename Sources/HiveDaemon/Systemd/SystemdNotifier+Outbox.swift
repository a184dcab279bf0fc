import HiveKit

extension SystemdNotifier {
    /// The queue between senders and the notifier's writer thread.
    ///
    /// `@unchecked Sendable`: `queue`, `sendingSince`, `started` and `taken` are only
    /// touched under `condition`'s mutex.
    final class Outbox: @unchecked Sendable {
        private let condition = ThreadCondition()
        private var queue = NotifyQueue()
        /// `CLOCK_MONOTONIC` nanoseconds since the message being sent was taken; 0 when idle.
        private var sendingSince: UInt64 = 0
        private var sending: NotifyMessage?
        private var started = false

        /// Queues `message`; true when the writer thread must be started (the first time).
        func add(_ message: NotifyMessage) -> Bool {
            let start = condition.withLock {
                queue.add(message)
                defer { started = true }
                return !started
            }
            if !start { condition.broadcast() }
            return start
        }

        /// The next message to send, waiting for one (writer thread only).
        func take() -> NotifyMessage {
            condition.withLock {
                sendingSince = 0
                sending = nil
                condition.broadcast()
                while queue.isEmpty { condition.wait(until: nil) }
                let message = queue.next()!
                sending = message
                sendingSince = MonotonicClock.nanoseconds()
                return message
            }
        }

        /// Waits until nothing is queued or being sent, or until `deadline`.
        func flush(until deadline: UInt64) -> Bool {
            condition.withLock {
                while !queue.isEmpty || sending != nil {
                    guard MonotonicClock.nanoseconds() < deadline else { return false }
                    condition.wait(until: deadline)
                }
                return true
            }
        }

        /// Messages not yet taken by `sd_notify` (the one being sent included), the first
        /// of them, and since when it is being sent (or, if none is, now).
        func backlog() -> (waiting: Int, first: NotifyMessage, since: UInt64)? {
            condition.withLock {
                guard let first = sending ?? queue.pending.first else { return nil }
                let since = sendingSince != 0 ? sendingSince : MonotonicClock.nanoseconds()
                return (queue.pending.count + (sending == nil ? 0 : 1), first, since)
            }
        }
    }
}
