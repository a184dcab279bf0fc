import Synchronization

/// The hook kind a hive is calling now, if any: what its modules' log lines report as
/// their `event`, whichever task logs them (a hook, a route or action handler, a service
/// factory, a module's own background task).
final class CurrentEvent: Sendable {
    /// `EventKind.rawValue` + 1; 0 between hooks.
    private let raw = Atomic<UInt8>(0)

    /// The kind being called, or `nil` between hooks.
    var kind: EventKind? {
        let raw = raw.load(ordering: .relaxed)
        return raw == 0 ? nil : EventKind(rawValue: raw &- 1)
    }

    /// Sets the kind being called (`nil`: none).
    func set(_ kind: EventKind?) {
        raw.store(kind.map { $0.rawValue &+ 1 } ?? 0, ordering: .relaxed)
    }
}
