extension Hive {
    /// The modules among `modules` still registered, in the order's order.
    func registered(among modules: [HostedModule]) -> [HostedModule] {
        state.withLock { $0.registered(among: modules) }
    }

    /// Sets up, then initializes, `modules` — modules joining a live hive — level by level,
    /// as ``start(rollingBack:)`` does for all. Observers see each phase delivered once its modules
    /// handled it; with no modules, nothing is delivered or observed.
    ///
    /// - Returns: the first failure; the module whose hook failed receives nothing more,
    ///   and the others stay as far as they got, for the caller to take down.
    func bringUp(_ modules: [HostedModule]) async -> HiveError? {
        guard !modules.isEmpty else { return nil }
        let hasAsync = modules.contains { $0.isAsync }
        for event in [HiveEvent.setup, .`init`] {
            let (failure, _) = await runStartPhase(event, registered(among: modules), hasAsync: hasAsync)
            if let failure { return failure }
        }
        return nil
    }

    /// Brings initialized modules to the hive's `phase`: `ready` if the hive got it, then
    /// `background` (with the parameters of the one that suspended the hive, e.g. its
    /// `reason`) if it is suspended. A throw is logged and reported, as for any event;
    /// observers see each event delivered once these modules handled it.
    func catchUp(_ modules: [HostedModule], to phase: HivePhase) async -> [HiveError] {
        let events: [HiveEvent] = switch phase {
        case .running: [.ready]
        case .suspended: [.ready, state.withLock { $0.suspendedBy }]
        default: []
        }
        var failures: [HiveError] = []
        let hasAsync = modules.contains { $0.isAsync }
        for event in events {
            let begin = MonotonicClock.nanoseconds()
            let before = failures.count
            let delivered = await fanOut(
                event, hook: event.kind, to: registered(among: modules), hasAsync: hasAsync,
                where: { $0.lifecycle == .active }
            ) { _, call in
                if let failure = call.failure { failures.append(failure) }
            }
            observeDelivery(event, delivered: delivered, failures: failures.count - before, since: begin)
        }
        return failures
    }

    /// Takes `modules` out of the hive: `terminate` to those that finished `init` (in
    /// order, levels as barriers), `teardown` to those set up and then `unmount` (each in
    /// reverse order, one at a time), every hook abandoned past its budget; then forgets
    /// them with the services, routes and actions they registered. A module whose `setup`
    /// or `init` failed receives nothing and is forgotten. Observers see each of the three
    /// events delivered once these modules handled it (none, when no module took part).
    func takeDown(_ modules: [HostedModule]) async -> [HiveError] {
        var failures: [HiveError] = []
        let collect: (HostedModule, HookCall) -> Void = { _, call in
            if let failure = call.failure { failures.append(failure) }
        }
        let current = registered(among: modules)
        let hasAsync = current.contains { $0.isAsync }
        var begin = MonotonicClock.nanoseconds()
        var before = failures.count
        var delivered = await fanOut(
            .terminate, hook: .terminate, to: current, hasAsync: hasAsync, where: { $0.lifecycle == .active },
            finished: collect)
        observeDelivery(.terminate, delivered: delivered, failures: failures.count - before, since: begin)
        var tornDown = Set<String>()
        (begin, before) = (MonotonicClock.nanoseconds(), failures.count)
        delivered = await fanOutInReverse(
            .teardown, hook: .teardown, to: current, where: { $0.lifecycle == .active || $0.lifecycle == .setUp }
        ) { module, call in
            tornDown.insert(module.name)
            module.lifecycle = .tornDown
            collect(module, call)
        }
        observeDelivery(.teardown, delivered: delivered, failures: failures.count - before, since: begin)
        (begin, before) = (MonotonicClock.nanoseconds(), failures.count)
        delivered = await fanOutInReverse(
            .unmount, hook: .unmount, to: current, where: { tornDown.contains($0.name) }, finished: collect)
        observeDelivery(.unmount, delivered: delivered, failures: failures.count - before, since: begin)
        forget(current.reversed())
        return failures
    }

    /// Tells observers that `event` reached `delivered` joining or leaving modules, after
    /// their handler outcomes; nothing when no module took part. Joining and leaving are
    /// rare (registration, reload), so the clock is read whether or not anyone observes.
    private func observeDelivery(_ event: HiveEvent, delivered: Int, failures: Int, since begin: UInt64) {
        guard delivered > 0, observers.isActive else { return }
        observers.eventDelivered(event, delivered: delivered, failures: failures, phase: phase, since: begin)
    }
}
