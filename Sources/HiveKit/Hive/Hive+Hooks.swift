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
    /// Calls the hook `kind` of `module` with `event` in its context, timing it for the
    /// profiler; at `abandoning` events a hook past its budget is left behind.
    ///
    /// Inlined into the fan-out, so that a sync module's call is one async frame, its hook's.
    /// The SIL inliner ignores `@inline(__always)` on a function of more than 64 blocks once
    /// its caller has 64 (Swift 6.3), and this one has 58: success and failure share one
    /// tail, and a custom event's handler is looked up out of line
    /// (``HostedModule/invoke(_:_:)``). At 84 blocks it was a call of its own for every
    /// module: 1,752 instructions per sync module call instead of 1,236
    /// (`scripts/bench profile`).
    ///
    /// - Parameter settings: what the context offers instead of the module's own settings
    ///   (a reload's, for `validateReload`).
    @inline(__always)
    func call(
        _ module: HostedModule, _ event: HiveEvent, hook kind: EventKind, abandoning: Bool, settings: Settings? = nil
    ) async -> HookCall {
        let context = ModuleContext(module, event: event, hive: self, settings: settings)
        if abandoning { return await callWithinBudget(module, context, hook: kind) }
        let start = MonotonicClock.nanoseconds()
        module.begin(kind, at: start)
        var thrown: (any Error)?
        let outcome: HandlerOutcome
        do {
            try await module.invoke(kind, context)
            outcome = .succeeded
        } catch {
            thrown = error
            outcome = .failed
        }
        let end = MonotonicClock.nanoseconds()
        module.end(kind, nanoseconds: end &- start, outcome: outcome)
        if observers.isActive { observers.handlerFinished(module.name, event, hook: kind, nanoseconds: end &- start, outcome) }
        guard let thrown else { return HookCall(failure: nil, start: start, end: end) }
        return HookCall(failure: failed(module, event, hook: kind, thrown), start: start, end: end)
    }

    /// Calls one hook but gives up waiting once its budget is spent.
    private func callWithinBudget(_ module: HostedModule, _ context: ModuleContext, hook kind: EventKind) async -> HookCall {
        let event = context.event
        let budget = budget(of: module)
        let start = MonotonicClock.nanoseconds()
        module.begin(kind, at: start)
        let turn = Turn.current
        let outcome = await BudgetRace.run(within: budget) {
            // The race runs the hook on a task of its own, which is no child of the turn's:
            // mark it, so that the hook calling back into its hive is refused.
            try await Turn.$current.withValue(turn?.forHook(of: module.name)) {
                try await module.runningHook(since: start) { try await module.invoke(kind, context) }
            }
        }
        let end = MonotonicClock.nanoseconds()
        if observers.isActive {
            let observed: HandlerOutcome = switch outcome {
            case .returned: .succeeded
            case .threw: .failed
            case .timedOut: .abandoned
            }
            observers.handlerFinished(module.name, event, hook: kind, nanoseconds: end &- start, observed)
        }
        switch outcome {
        case .returned:
            module.end(kind, nanoseconds: end &- start, outcome: .succeeded)
            return HookCall(failure: nil, start: start, end: end)
        case .threw(let error):
            module.end(kind, nanoseconds: end &- start, outcome: .failed)
            return HookCall(failure: failed(module, event, hook: kind, error), start: start, end: end)
        case .timedOut:
            module.abandon(kind, since: start, nanoseconds: end &- start)
            module.logger.error(
                "abandoned after its budget of \(budget.shortDescription)",
                metadata: ["event": .stringConvertible(kind)])
            let failure = HiveError(
                .handlerTimedOut, module: module.name, event: event,
                "did not return within its budget of \(budget.shortDescription) and was abandoned")
            return HookCall(failure: failure, start: start, end: end)
        }
    }

    /// Logs a hook's throw (`[store] init: failed: cause`) and returns it as a ``HiveError``
    /// naming module, event and cause. A ``HiveError`` the hook passed on that names this
    /// module already (`context.sockets.take`'s) gives its message only, so the module is
    /// named once. A cause that carries `EMFILE` or `ENFILE` (``ErrnoCarrying``) says the
    /// process or the system is out of descriptors.
    private func failed(_ module: HostedModule, _ event: HiveEvent, hook kind: EventKind, _ error: any Error) -> HiveError {
        let what = if case .custom(let name, _) = event { "'\(name)' failed" } else { "failed" }
        var cause = if let own = error as? HiveError, own.module == module.name, own.event == nil, own.location == nil {
            own.message
        } else {
            "\(error)"
        }
        if let code = (error as? any ErrnoCarrying)?.errno, let note = DescriptorShortage.note(for: code) {
            cause += " (\(note))"
        }
        module.logger.error("\(what): \(cause)", metadata: ["event": .stringConvertible(kind)])
        let message = kind == .validateReload ? "validateReload refused the new settings: \(cause)" : cause
        return HiveError(.handlerFailed, module: module.name, event: event, message, underlying: error)
    }
}
