import HiveKit
import Synchronization

/// Collects events for the control socket's subscribers, as a ``HiveObserver``: the
/// hive calls it during delivery, so it only appends to a bounded list and wakes the
/// socket's thread, which encodes and sends. Observing starts with the first
/// subscriber and stops with the last, so without subscribers dispatch pays nothing.
final class ControlSubscription: HiveObserver {
    /// Events held for the socket thread; past this, subscribers are dropped (they
    /// would miss events) rather than delivery slowed.
    static let capacity = 4096

    private struct State {
        var notices: [DaemonAPI.Notice] = []
        var overflowed = false
        var wake: ControlWake?
    }

    private let hive: Hive
    private let state = Mutex(State())

    init(hive: Hive) {
        self.hive = hive
    }

    func setWake(_ wake: ControlWake) {
        state.withLock { $0.wake = wake }
    }

    /// Starts (`true`) or stops observing the hive.
    func observe(_ on: Bool) {
        if on {
            state.withLock { $0.notices.reserveCapacity(256) }
            hive.addObserver(self)
        } else {
            hive.removeObserver(self)
            state.withLock { $0 = State(wake: $0.wake) }
        }
    }

    func handlerFinished(_ call: ObservedCall) {
        push(DaemonAPI.Notice(
            event: call.event.kind.name, name: Self.customName(call.event), module: call.module,
            phase: hive.phase.rawValue, durationMicroseconds: call.duration.microseconds,
            failed: call.outcome != .succeeded))
    }

    func eventDelivered(_ event: ObservedEvent) {
        push(DaemonAPI.Notice(
            event: event.event.kind.name, name: Self.customName(event.event), module: nil,
            phase: event.phase.rawValue, durationMicroseconds: event.duration.microseconds,
            failed: event.failures > 0))
    }

    /// What arrived since the last call, and whether some was lost for lack of room.
    func drain() -> (notices: [DaemonAPI.Notice], overflowed: Bool) {
        state.withLock { state in
            defer {
                state.notices.removeAll(keepingCapacity: true)
                state.overflowed = false
            }
            return (state.notices, state.overflowed)
        }
    }

    private func push(_ notice: DaemonAPI.Notice) {
        let wake = state.withLock { state -> ControlWake? in
            guard state.notices.count < Self.capacity else {
                state.overflowed = true
                return state.wake
            }
            state.notices.append(notice)
            return state.wake
        }
        wake?.wake()
    }

    private static func customName(_ event: HiveEvent) -> String? {
        if case .custom(let name, _) = event { return name }
        return nil
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
