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
    /// Sync modules are called one after another in order while async modules run
    /// concurrently with them; `teardown` is sequential in reverse order. A hook that
    /// throws is logged with module and event and does not stop delivery. At
    /// `terminate` and `teardown` a hook past its budget is abandoned.
    ///
    /// - Throws: ``HiveError`` (`.refusedEvent`) when the event makes no sense in the
    ///   current ``phase`` (`foreground` before `init`, anything after `teardown`);
    ///   `setup` and `init` come from ``start()``, `unmount` from ``unregister(named:)``.
    @discardableResult
    public func send(_ event: HiveEvent) async throws(HiveError) -> DeliveryReport {
        try await takingTurn("send(\(event))", event: event) { () throws(HiveError) in
            try await deliver(event)
        }
    }

    private func deliver(_ event: HiveEvent) async throws(HiveError) -> DeliveryReport {
        let kind = event.kind
        let (entries, asyncCount, next) = try state.withLock { state throws(HiveError) in
            guard let next = state.phase.after(kind) else {
                throw HiveError(
                    .refusedEvent, event: event,
                    "refused in phase '\(state.phase)'\(Self.hint(for: kind))")
            }
            return (state.entries, state.asyncCount, next)
        }
        let observed = observers.isActive
        let begin = observed ? MonotonicClock.nanoseconds() : 0
        let report: DeliveryReport
        if kind == .teardown {
            report = await tearDown(entries, event: event)
            stopMonitor()
        } else {
            report = await fanOut(event, to: entries, concurrently: asyncCount > 0)
        }
        state.withLock { state in
            state.phase = next
            state.delivered[Int(kind.rawValue)] += 1
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

    /// Delivers `event` to the active modules among `entries`.
    func fanOut(_ event: HiveEvent, to entries: [ModuleEntry], concurrently: Bool) async -> DeliveryReport {
        let abandoning = event.kind.abandonsStalledHandlers
        var failures: [HiveError] = []
        var delivered = 0
        if !concurrently {
            for entry in entries where entry.lifecycle == .active {
                delivered += 1
                if let failure = await call(entry, event, abandoning: abandoning) { failures.append(failure) }
            }
            return DeliveryReport(event: event, failures: failures, delivered: delivered)
        }
        await withTaskGroup(of: HiveError?.self) { group in
            for entry in entries where entry.lifecycle == .active && entry.descriptor.isAsync {
                delivered += 1
                group.addTask { await self.call(entry, event, abandoning: abandoning) }
            }
            for entry in entries where entry.lifecycle == .active && !entry.descriptor.isAsync {
                delivered += 1
                if let failure = await call(entry, event, abandoning: abandoning) { failures.append(failure) }
            }
            for await case let failure? in group { failures.append(failure) }
        }
        return DeliveryReport(event: event, failures: failures, delivered: delivered)
    }

    /// Tears down, in reverse order and one at a time, every module among `entries` that
    /// was set up, abandoning a hook past its budget so the ones after it still run;
    /// then releases singleton services in reverse order of creation and closes the
    /// services, routes and actions.
    func tearDown(_ entries: [ModuleEntry], event: HiveEvent = .teardown) async -> DeliveryReport {
        var failures: [HiveError] = []
        var delivered = 0
        for entry in entries.reversed() where entry.lifecycle == .active || entry.lifecycle == .setUp {
            delivered += 1
            if let failure = await call(entry, event, abandoning: true) { failures.append(failure) }
            state.withLock { $0.setLifecycle(.tornDown, of: entry) }
        }
        closeCalls()
        return DeliveryReport(event: event, failures: failures, delivered: delivered)
    }

    /// Calls one hook, timing it for the profiler; returns the failure, if any.
    @inline(__always)
    func call(_ entry: ModuleEntry, _ event: HiveEvent, abandoning: Bool) async -> HiveError? {
        if abandoning { return await callWithinBudget(entry, event) }
        let context = ModuleContext(entry: entry, event: event, hive: self)
        let kind = event.kind
        let start = MonotonicClock.nanoseconds()
        entry.runtime.begin(kind, at: start)
        do {
            try await entry.module.handle(event, context)
            let elapsed = MonotonicClock.nanoseconds() &- start
            entry.runtime.end(kind, nanoseconds: elapsed, outcome: .succeeded)
            if observers.isActive { observers.handlerFinished(entry.name, event, nanoseconds: elapsed, .succeeded) }
            return nil
        } catch {
            let elapsed = MonotonicClock.nanoseconds() &- start
            entry.runtime.end(kind, nanoseconds: elapsed, outcome: .failed)
            if observers.isActive { observers.handlerFinished(entry.name, event, nanoseconds: elapsed, .failed) }
            return failed(entry, event, error)
        }
    }

    /// Calls one hook but gives up waiting once its budget is spent.
    private func callWithinBudget(_ entry: ModuleEntry, _ event: HiveEvent) async -> HiveError? {
        let context = ModuleContext(entry: entry, event: event, hive: self)
        let kind = event.kind
        let budget = budget(of: entry)
        let start = MonotonicClock.nanoseconds()
        entry.runtime.begin(kind, at: start)
        let module = entry.module
        let runtime = entry.runtime
        let mark = HookMark.current
        let name = entry.name
        let outcome = await BudgetRace.run(within: budget) {
            // The race runs the hook on a task of its own, which is no child of the turn's:
            // mark it, so that the hook calling back into its hive is refused.
            try await HookMark.$current.withValue(mark?.forHook(of: name)) {
                try await runtime.runningHook(since: start) { try await module.handle(event, context) }
            }
        }
        let elapsed = MonotonicClock.nanoseconds() &- start
        if observers.isActive {
            let observed: HandlerOutcome = switch outcome {
            case .returned: .succeeded
            case .threw: .failed
            case .timedOut: .abandoned
            }
            observers.handlerFinished(entry.name, event, nanoseconds: elapsed, observed)
        }
        switch outcome {
        case .returned:
            entry.runtime.end(kind, nanoseconds: elapsed, outcome: .succeeded)
            return nil
        case .threw(let error):
            entry.runtime.end(kind, nanoseconds: elapsed, outcome: .failed)
            return failed(entry, event, error)
        case .timedOut:
            entry.runtime.abandon(kind, since: start, nanoseconds: elapsed)
            entry.logger.error(
                "abandoned \(event) after its budget of \(budget.shortDescription)",
                metadata: ["event": .stringConvertible(kind), "budget": "\(budget.shortDescription)"])
            return HiveError(
                .handlerTimedOut, module: entry.name, event: event,
                "did not return within its budget of \(budget.shortDescription) and was abandoned")
        }
    }

    private func failed(_ entry: ModuleEntry, _ event: HiveEvent, _ error: any Error) -> HiveError {
        entry.logger.error(
            "\(event) failed: \(error)", metadata: ["event": .stringConvertible(event.kind)])
        return HiveError(.handlerFailed, module: entry.name, event: event, "\(error)", underlying: error)
    }
}
