import Logging

/// What delivering one event did.
public struct DeliveryReport: Sendable {
    /// The event delivered.
    public let event: HiveEvent
    /// Modules whose hook threw or was abandoned; delivery to the others went on.
    public let failures: [HiveError]
    /// Modules that received the event.
    public let delivered: Int
}

extension Hive {
    /// Delivers `event` to every active module and waits until all hooks returned.
    ///
    /// Levels are barriers: every `basic` module (sync or async) returns before any
    /// `normal` one is called. Within a level, sync modules are called one after another
    /// in order while async ones run concurrently with them. `terminate` keeps that order;
    /// `teardown` runs one module at a time in exactly the reverse order. A hook that throws
    /// is logged with module and event and does not stop delivery. At `terminate` and
    /// `teardown` a hook past its budget is abandoned.
    ///
    /// - Throws: ``HiveError`` (`.refusedEvent`) when the event makes no sense in the
    ///   current ``phase`` (`foreground` before `init`, anything after `teardown`);
    ///   `setup` and `init` come from ``start(rollingBack:)``, `unmount` from ``unregister(named:)``.
    @discardableResult
    public func send(_ event: HiveEvent) async throws(HiveError) -> DeliveryReport {
        try await takingTurn("send(\(event))", event: event) { () throws(HiveError) in
            try await deliver(event)
        }
    }

    private func deliver(_ event: HiveEvent) async throws(HiveError) -> DeliveryReport {
        let kind = event.kind
        let (modules, asyncCount, next) = try state.withLock { state throws(HiveError) in
            guard let next = state.phase.after(kind) else {
                throw HiveError(
                    .refusedEvent, event: event,
                    "refused in phase '\(state.phase)'\(Self.hint(for: kind))")
            }
            return (state.modules, state.asyncCount, next)
        }
        let observed = observers.isActive
        let begin = observed ? MonotonicClock.nanoseconds() : 0
        let report: DeliveryReport
        if kind == .teardown {
            let (delivered, failures) = await tearDownAll()
            report = DeliveryReport(event: event, failures: failures, delivered: delivered)
        } else {
            var failures: [HiveError] = []
            let delivered = await fanOut(
                event, hook: kind, to: modules, hasAsync: asyncCount > 0, where: { $0.lifecycle == .active }
            ) { _, call in
                if let failure = call.failure { failures.append(failure) }
            }
            report = DeliveryReport(event: event, failures: failures, delivered: delivered)
        }
        state.withLock { state in
            state.phase = next
            state.delivered[Int(kind.rawValue)] += 1
            if kind == .background { state.suspendedBy = event }
        }
        if observed { observers.eventDelivered(report, phase: next, since: begin) }
        return report
    }

    private static func hint(for kind: EventKind) -> String {
        switch kind {
        case .setup, .`init`: "; start() delivers setup and init"
        case .unmount: "; unregister(named:) delivers unmount"
        default: ""
        }
    }
}
