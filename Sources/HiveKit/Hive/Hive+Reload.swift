extension Hive {
    /// Applies a new, already validated list of configured modules to a running hive, all
    /// or nothing, as one turn of the queue.
    ///
    /// **Prepare**, changing nothing that runs: check the names and build every added
    /// module through `catalog`; ask every kept module whose settings change whether it
    /// accepts them (``Module/validateReload(_:)``, with the new settings in its context);
    /// set up and initialize the added modules, levels as barriers. **Commit** only if all
    /// of that succeeded: the removed (or disabled) modules get `terminate`, `teardown` and
    /// `unmount`; the kept ones take their new descriptors and, with the modules registered
    /// in code, receive `reload`; the added ones receive `ready` (and `background` if the
    /// hive is suspended). **Abort** otherwise: the added modules that were set up are taken
    /// down again (the one whose hook failed receives nothing more) and nothing else
    /// changes; the result's ``ReloadSummary/failure`` says which phase failed and why.
    ///
    /// Observers (the control socket's `Subscribe`) see every hook call in that order, and each event
    /// delivered to a set of joining or leaving modules once those modules handled it. The
    /// `reload` event itself is observed last, after the added modules' `ready` (and
    /// `background`), so what an observer saw up to it is everything the reload did; an
    /// aborted reload has no `reload` event.
    ///
    /// A module whose type changes cannot run twice at once: its old instance is removed
    /// (after validation, before the added modules are set up), so if the reload then
    /// aborts it is not running; ``ReloadFailure/lost`` names it.
    ///
    /// A list that enables no module while configured modules run removes them all, which
    /// is what a configuration file caught half-written (cut right after `modules:`) or
    /// emptied by mistake asks for too: with `refusingToRemoveAll`, such a reload aborts in
    /// the build phase with that error instead (modules registered in code never count).
    ///
    /// - Throws: ``HiveError`` only when the reload cannot begin: `.refusedEvent` when the
    ///   hive is not running (or the call comes from one of its hooks), `.cancelled`.
    public func reload(
        to descriptors: [ModuleDescriptor], catalog: ModuleCatalog, refusingToRemoveAll refusal: HiveError? = nil
    ) async throws(HiveError) -> ReloadSummary {
        try await takingTurn("reload(to:catalog:)", event: .reload) { () throws(HiveError) in
            let begin = MonotonicClock.nanoseconds()
            var summary = try await apply(descriptors, catalog: catalog, refusingToRemoveAll: refusal)
            summary.duration = .nanoseconds(Int64(clamping: MonotonicClock.nanoseconds() &- begin))
            return summary
        }
    }

    private func apply(
        _ descriptors: [ModuleDescriptor], catalog: ModuleCatalog, refusingToRemoveAll refusal: HiveError?
    ) async throws(HiveError) -> ReloadSummary {
        let (phase, current) = state.withLock { ($0.phase, $0.modules) }
        guard phase.isLive else {
            throw HiveError(.refusedEvent, event: .reload, "refused in phase '\(phase)'")
        }
        var summary = ReloadSummary()
        let plan: ReloadPlan
        do {
            plan = try ReloadPlan(descriptors, current: current, catalog: catalog)
        } catch {
            summary.failure = ReloadFailure(phase: .build, error: error, rolledBack: [], lost: [])
            return summary
        }
        if let refusal, plan.kept.isEmpty, plan.added.isEmpty, !plan.removed.isEmpty {
            summary.failure = ReloadFailure(phase: .build, error: refusal, rolledBack: [], lost: [])
            return summary
        }
        let locations = Dictionary(descriptors.map { ($0.name, $0.location) }, uniquingKeysWith: { first, _ in first })
        if let refusal = await validate(plan.kept) {
            summary.failure = ReloadFailure(
                phase: .validate, error: refusal.located(at: locations[refusal.module ?? ""] ?? nil),
                rolledBack: [], lost: [])
            return summary
        }
        // The point of no return for modules whose type changes.
        summary.failures += await takeDown(plan.replaced)
        var added: [HostedModule] = []
        for (module, descriptor) in plan.added {
            do {
                added.append(try add(module, as: descriptor))
            } catch {
                summary.failure = ReloadFailure(phase: .build, error: error, rolledBack: [], lost: plan.replaced.map(\.name))
                summary.failures += await takeDown(added)
                return summary
            }
        }
        if let failure = await bringUp(added) {
            let setUp = registered(among: added).filter { $0.lifecycle == .active || $0.lifecycle == .setUp }.map(\.name)
            summary.failures += await takeDown(added)
            summary.failure = ReloadFailure(
                phase: .start, error: failure.located(at: locations[failure.module ?? ""] ?? nil),
                rolledBack: setUp, lost: plan.replaced.map(\.name))
            return summary
        }
        // Commit.
        summary.failures += await takeDown(plan.removed)
        summary.removed = (plan.replaced + plan.removed).map(\.name)
        summary.added = added.map(\.name)
        summary.changed = updateDescriptors(plan.kept)
        let addedNames = Set(summary.added)
        let (modules, asyncCount) = state.withLock { state in
            state.delivered[Int(EventKind.reload.rawValue)] += 1
            return (state.modules.filter { !addedNames.contains($0.name) }, state.asyncCount)
        }
        let begin = MonotonicClock.nanoseconds()
        var reloadFailures: [HiveError] = []
        summary.reloaded = await fanOut(
            .reload, hook: .reload, to: modules, hasAsync: asyncCount > 0, where: { $0.lifecycle == .active }
        ) { _, call in
            if let failure = call.failure { reloadFailures.append(failure) }
        }
        let reloadTime = MonotonicClock.nanoseconds() &- begin
        summary.failures += reloadFailures
        summary.failures += await catchUp(added, to: phase)
        // Observed last, once the added modules caught up: an observer that waits for the
        // `reload` event has seen everything the reload did. Its duration is the reload
        // hooks' alone.
        if observers.isActive {
            observers.eventDelivered(
                .reload, delivered: summary.reloaded, failures: reloadFailures.count, phase: phase,
                nanoseconds: reloadTime)
        }
        return summary
    }

    /// Asks every kept module whose settings change whether it accepts them (its context
    /// carrying the new settings), in the order as it is, levels as barriers; returns the
    /// first refusal.
    private func validate(_ kept: [ReloadPlan.Kept]) async -> HiveError? {
        let candidates = kept.filter(\.settingsChange)
        guard !candidates.isEmpty else { return nil }
        let modules = registered(among: candidates.map(\.module))
        let proposed = Dictionary(candidates.map { ($0.module.name, $0.descriptor.settings) }) { _, last in last }
        var refusal: HiveError?
        _ = await fanOut(
            .reload, hook: .validateReload, to: modules, hasAsync: modules.contains { $0.isAsync },
            stopAtFailure: true, proposed: proposed, where: { $0.lifecycle == .active }
        ) { _, call in
            if refusal == nil { refusal = call.failure }
        }
        return refusal
    }

    /// Gives kept modules their new descriptors and restores the order; returns the
    /// names of those that changed.
    private func updateDescriptors(_ kept: [ReloadPlan.Kept]) -> [String] {
        let descriptors = Dictionary(kept.map { ($0.module.name, $0.descriptor) }) { _, last in last }
        let (changed, minimum) = state.withLock { state in
            let changed = state.update(descriptors)
            return (changed, state.minimumBudget)
        }
        setMinimumBudget(minimum)
        return changed
    }
}

extension HiveError {
    /// The same error, at `location` unless it names one already.
    func located(at location: SourceLocation?) -> HiveError {
        guard self.location == nil, let location else { return self }
        return HiveError(code, module: module, event: event, location: location, message, underlying: underlying)
    }
}
