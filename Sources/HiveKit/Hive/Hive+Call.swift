/// How one hook call ended, and when it ran (`CLOCK_MONOTONIC` nanoseconds).
struct HookCall: Sendable {
    /// What went wrong, if the hook threw or was abandoned.
    let failure: HiveError?
    let start: UInt64
    let end: UInt64

    /// How long the call took, or how long the hive waited for it.
    var duration: Duration { .nanoseconds(Int64(clamping: end &- start)) }
}

extension Hive {
    /// Calls the hook `kind` of one module with `event` in its context, timing it for the
    /// profiler; at `abandoning` events a hook past its budget is left behind.
    @inline(__always)
    func call(_ entry: ModuleEntry, _ event: HiveEvent, hook kind: EventKind, abandoning: Bool) async -> HookCall {
        if abandoning { return await callWithinBudget(entry, event, hook: kind) }
        let context = ModuleContext(entry: entry, event: event, hive: self)
        let start = MonotonicClock.nanoseconds()
        entry.runtime.begin(kind, at: start)
        do {
            try await entry.invoke(kind, context)
            let end = MonotonicClock.nanoseconds()
            entry.runtime.end(kind, nanoseconds: end &- start, outcome: .succeeded)
            if observers.isActive { observers.handlerFinished(entry.name, event, hook: kind, nanoseconds: end &- start, .succeeded) }
            return HookCall(failure: nil, start: start, end: end)
        } catch {
            let end = MonotonicClock.nanoseconds()
            entry.runtime.end(kind, nanoseconds: end &- start, outcome: .failed)
            if observers.isActive { observers.handlerFinished(entry.name, event, hook: kind, nanoseconds: end &- start, .failed) }
            return HookCall(failure: failed(entry, event, hook: kind, error), start: start, end: end)
        }
    }

    /// Calls one hook but gives up waiting once its budget is spent.
    private func callWithinBudget(_ entry: ModuleEntry, _ event: HiveEvent, hook kind: EventKind) async -> HookCall {
        let context = ModuleContext(entry: entry, event: event, hive: self)
        let budget = budget(of: entry)
        let start = MonotonicClock.nanoseconds()
        entry.runtime.begin(kind, at: start)
        let runtime = entry.runtime
        let mark = HookMark.current
        let name = entry.name
        let outcome = await BudgetRace.run(within: budget) {
            // The race runs the hook on a task of its own, which is no child of the turn's:
            // mark it, so that the hook calling back into its hive is refused.
            try await HookMark.$current.withValue(mark?.forHook(of: name)) {
                try await runtime.runningHook(since: start) { try await entry.invoke(kind, context) }
            }
        }
        let end = MonotonicClock.nanoseconds()
        if observers.isActive {
            let observed: HandlerOutcome = switch outcome {
            case .returned: .succeeded
            case .threw: .failed
            case .timedOut: .abandoned
            }
            observers.handlerFinished(entry.name, event, hook: kind, nanoseconds: end &- start, observed)
        }
        switch outcome {
        case .returned:
            entry.runtime.end(kind, nanoseconds: end &- start, outcome: .succeeded)
            return HookCall(failure: nil, start: start, end: end)
        case .threw(let error):
            entry.runtime.end(kind, nanoseconds: end &- start, outcome: .failed)
            return HookCall(failure: failed(entry, event, hook: kind, error), start: start, end: end)
        case .timedOut:
            entry.runtime.abandon(kind, since: start, nanoseconds: end &- start)
            entry.logger.error(
                "abandoned after its budget of \(budget.shortDescription)",
                metadata: ["event": .stringConvertible(kind)])
            let failure = HiveError(
                .handlerTimedOut, module: entry.name, event: event,
                "did not return within its budget of \(budget.shortDescription) and was abandoned")
            return HookCall(failure: failure, start: start, end: end)
        }
    }

    /// Logs a hook's throw (`[store] init: failed: cause`) and returns it as a ``HiveError``
    /// naming module, event and cause. A ``HiveError`` the hook passed on that names this
    /// module already (`context.sockets.take`'s) gives its message only, so the module is
    /// named once. A cause that carries `EMFILE` or `ENFILE` (``ErrnoCarrying``) says the
    /// process or the system is out of descriptors.
    private func failed(_ entry: ModuleEntry, _ event: HiveEvent, hook kind: EventKind, _ error: any Error) -> HiveError {
        let what = if case .custom(let name, _) = event { "'\(name)' failed" } else { "failed" }
        var cause = if let own = error as? HiveError, own.module == entry.name, own.event == nil, own.location == nil {
            own.message
        } else {
            "\(error)"
        }
        if let code = (error as? any ErrnoCarrying)?.errno, let note = DescriptorShortage.note(for: code) {
            cause += " (\(note))"
        }
        entry.logger.error("\(what): \(cause)", metadata: ["event": .stringConvertible(kind)])
        let message = kind == .validateReload ? "validateReload refused the new settings: \(cause)" : cause
        return HiveError(.handlerFailed, module: entry.name, event: event, message, underlying: error)
    }
}
