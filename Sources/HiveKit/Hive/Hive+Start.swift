extension Hive {
    /// Runs every module's `setup`, then every module's `init`, level by level: every
    /// `basic` module (sync or async) returns before any `normal` one is called; within a
    /// level, sync modules one after another in order, async ones concurrently with them.
    /// The hive is then ``HivePhase/initialized``: tell the supervisor it is ready, then
    /// ``send(_:)`` `.ready`.
    ///
    /// - Parameter rollingBack: called with the first failure once a start phase failed,
    ///   before the modules already set up are torn down: a supervisor can bound the
    ///   rollback from there (a hook that blocks its thread in `teardown` is abandoned at
    ///   its budget but keeps the thread). It runs on the starting task and must return at
    ///   once.
    /// - Throws: ``HiveError`` naming the module, event and cause of the first failure.
    ///   Before throwing, every module already set up is torn down in reverse order; the
    ///   failed module receives nothing more and the hive is ``HivePhase/failed``.
    public func start(rollingBack: (HiveError) -> Void = { _ in }) async throws(HiveError) {
        try await takingTurn("start()", event: .setup) { () throws(HiveError) in
            try await startModules(rollingBack: rollingBack)
        }
    }

    private func startModules(rollingBack: (HiveError) -> Void) async throws(HiveError) {
        let (modules, asyncCount) = try state.withLock { state throws(HiveError) in
            guard state.phase == .created else {
                throw HiveError(.refusedEvent, event: .setup, "start() refused in phase '\(state.phase)'")
            }
            state.phase = .starting
            return (state.modules, state.asyncCount)
        }
        let begin = MonotonicClock.nanoseconds()
        let setup = await runStartPhase(.setup, modules, hasAsync: asyncCount > 0)
        var failure = setup.failure
        var phases = [setup.profile]
        if failure == nil {
            let initPhase = await runStartPhase(.`init`, state.withLock { $0.modules }, hasAsync: asyncCount > 0)
            failure = initPhase.failure
            phases.append(initPhase.profile)
        }
        let total = Duration.nanoseconds(Int64(clamping: MonotonicClock.nanoseconds() &- begin))
        state.withLock { state in
            state.startup = StartupProfile(phases: phases, total: total)
            for phase in phases { state.delivered[Int(phase.event.rawValue)] += 1 }
        }
        socketTable.closeUnclaimed(startSucceeded: failure == nil)
        guard let failure else {
            state.withLock { $0.phase = .initialized }
            return
        }
        logger.error("start failed, rolling back: \(failure)")
        rollingBack(failure)
        _ = await tearDownAll()
        state.withLock { $0.phase = .failed }
        throw failure
    }

    /// Delivers `terminate` in order, then `teardown` in reverse order: a clean stop.
    ///
    /// Hooks past their budget are abandoned so every module gets its turn.
    /// - Returns: the failures of both events, in the order they happened. A stop that
    ///   is refused (the hive is not running, or a hook of this hive called it) changes
    ///   nothing and returns the refusal alone.
    @discardableResult
    public func stop() async -> [HiveError] {
        var failures: [HiveError] = []
        do {
            failures += try await send(.terminate).failures
            failures += try await send(.teardown).failures
        } catch {
            failures.append(error)
        }
        return failures
    }

    /// Runs one start phase (`setup` on registered modules, `init` on set-up ones) over
    /// `modules`, level by level, marking each module that succeeds (or fails); stops at
    /// the first failure.
    func runStartPhase(
        _ event: HiveEvent, _ modules: [HostedModule], hasAsync: Bool
    ) async -> (failure: HiveError?, profile: StartupPhase) {
        let (from, to): (HostedModule.Lifecycle, HostedModule.Lifecycle) =
            event == .setup ? (.registered, .setUp) : (.setUp, .active)
        let begin = MonotonicClock.nanoseconds()
        var firstFailure: HiveError?
        var syncTimings: [HandlerTiming] = []
        var asyncTimings: [HandlerTiming] = []
        _ = await fanOut(
            event, hook: event.kind, to: modules, hasAsync: hasAsync, stopAtFailure: true,
            where: { $0.lifecycle == from }
        ) { module, call in
            module.lifecycle = call.failure == nil ? to : .failed
            if firstFailure == nil { firstFailure = call.failure }
            let timing = HandlerTiming(
                module: module.name, event: event.kind, duration: call.duration,
                outcome: call.failure == nil ? .succeeded : .failed, level: module.level)
            if module.isAsync { asyncTimings.append(timing) } else { syncTimings.append(timing) }
        }
        if observers.isActive {
            let timings = syncTimings + asyncTimings
            observers.eventDelivered(
                event, delivered: timings.count, failures: timings.count { $0.outcome != .succeeded },
                phase: phase, since: begin)
        }
        let wall = Duration.nanoseconds(Int64(clamping: MonotonicClock.nanoseconds() &- begin))
        let profile = StartupPhase(event: event.kind, duration: wall, sync: syncTimings, async: asyncTimings)
        return (firstFailure, profile)
    }
}
