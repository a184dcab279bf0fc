import HiveKit
import Synchronization

/// Collects events for the control socket's subscribers, as a ``HiveObserver``: the
/// hive calls it during delivery, so it only writes the event into a ring of the last
/// ``capacity`` notices (allocated with the first subscriber) and wakes the socket's
/// thread, which encodes and sends. Each subscriber reads the ring from a cursor of its
/// own, as fast as its socket takes the replies: one that falls ``capacity`` notices
/// behind has lost events and is dropped, alone; the others go on. Observing starts with
/// the first subscriber and stops with the last, so without subscribers dispatch pays
/// nothing.
///
/// The ring is bounded in bytes too: a notice's names (the custom event's, the module's)
/// are cut at ``maximumName`` bytes, so the ring holds at most ``capacity`` notices of
/// under 1 KiB each, whatever a module names itself or the events it sends.
final class ControlSubscription: HiveObserver {
    /// Notices kept for subscribers: how far one may fall behind before it is dropped.
    static let capacity = 4096
    /// The longest name in a notice, in UTF-8 bytes; a longer one is cut, ending in `…`.
    static let maximumName = 255

    private struct State {
        /// Notice `n` at `n % capacity`; empty while nobody subscribes.
        var ring: [DaemonAPI.Notice?] = []
        /// The sequence number of the next notice.
        var next: UInt64 = 0
        var wake: Wakeup?
    }

    private let hive: Hive
    private let state = Mutex(State())

    init(hive: Hive) {
        self.hive = hive
    }

    func setWake(_ wake: Wakeup) {
        state.withLock { $0.wake = wake }
    }

    /// Starts (`true`) or stops observing the hive.
    func observe(_ on: Bool) {
        if on {
            state.withLock { state in
                if state.ring.isEmpty { state.ring = Array(repeating: nil, count: Self.capacity) }
            }
            hive.addObserver(self)
        } else {
            hive.removeObserver(self)
            state.withLock { $0.ring = [] }
        }
    }

    /// The sequence number of the next notice: where a new subscriber's cursor starts.
    var nextSequence: UInt64 { state.withLock { $0.next } }

    /// Up to `limit` notices from sequence number `cursor` on, oldest first; `nil` when
    /// the one at `cursor` was overwritten (the reader fell ``capacity`` notices behind).
    func notices(from cursor: UInt64, limit: Int) -> [DaemonAPI.Notice]? {
        state.withLock { state in
            guard state.next &- cursor <= UInt64(Self.capacity) else { return nil }
            let count = min(Int(state.next &- cursor), limit)
            guard count > 0, !state.ring.isEmpty else { return [] }
            var notices: [DaemonAPI.Notice] = []
            notices.reserveCapacity(count)
            for sequence in cursor..<(cursor + UInt64(count)) {
                guard let notice = state.ring[Int(sequence % UInt64(Self.capacity))] else { return nil }
                notices.append(notice)
            }
            return notices
        }
    }

    func handlerFinished(_ call: ObservedCall) {
        push(DaemonAPI.Notice(
            event: call.hook.name, name: Self.customName(call.event), module: Self.bounded(call.module),
            phase: hive.phase.rawValue, durationMicroseconds: call.duration.microseconds,
            failed: call.outcome != .succeeded))
    }

    func eventDelivered(_ event: ObservedEvent) {
        push(DaemonAPI.Notice(
            event: event.event.kind.name, name: Self.customName(event.event), module: nil,
            phase: event.phase.rawValue, durationMicroseconds: event.duration.microseconds,
            failed: event.failures > 0))
    }

    private func push(_ notice: DaemonAPI.Notice) {
        let wake = state.withLock { state -> Wakeup? in
            guard !state.ring.isEmpty else { return nil }
            state.ring[Int(state.next % UInt64(Self.capacity))] = notice
            state.next += 1
            return state.wake
        }
        wake?.signal()
    }

    private static func customName(_ event: HiveEvent) -> String? {
        if case .custom(let name, _) = event { return bounded(name) }
        return nil
    }

    /// `name`, cut to ``maximumName`` bytes (a copy only when it is longer).
    private static func bounded(_ name: String) -> String {
        guard name.utf8.count > maximumName else { return name }
        return name.prefix(utf8Bytes: maximumName - 3) + "…"
    }
}

extension Duration {
    /// Whole microseconds, clamped to `Int`.
    var microseconds: Int {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : Int(product + attoseconds / 1_000_000_000_000)
    }
}
