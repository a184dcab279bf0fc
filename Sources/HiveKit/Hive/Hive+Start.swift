extension Hive {
    /// Runs every module's `setup`, then every module's `init`, in order (async modules
    /// concurrently with the sync ones). The hive is then ``HivePhase/initialized``:
    /// tell the supervisor it is ready, then ``send(_:)`` `.ready`.
    ///
    /// - Throws: ``HiveError`` naming the module, event and cause of the first failure.
    ///   Before throwing, every module already set up is torn down in reverse order; the
    ///   failed module receives nothing more and the hive is ``HivePhase/failed``.
    public func start() async throws(HiveError) {
        try await takingTurn("start()", event: .setup) { () throws(HiveError) in try await startModules() }
    }

    private func startModules() async throws(HiveError) {
        let entries = try state.withLock { state throws(HiveError) in
            guard state.phase == .created else {
                throw HiveError(.refusedEvent, event: .setup, "start() refused in phase '\(state.phase)'")
            }
            state.phase = .starting
            return state.entries
        }
        startMonitor()
        let begin = MonotonicClock.nanoseconds()
        let setup = await runStartPhase(.setup, entries, marking: .setUp)
        var failure = setup.failure
        var phases = [setup.profile]
        if failure == nil {
            let initPhase = await runStartPhase(.`init`, state.withLock { $0.entries }, marking: .active)
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
        _ = await tearDown(state.withLock { $0.entries })
        stopMonitor()
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

    /// Runs one start phase over the modules of `entries` that are still in the running,
    /// marking each that succeeds; stops calling sync modules at the first failure.
    private func runStartPhase(
        _ event: HiveEvent,
        _ entries: [ModuleEntry],
        marking success: ModuleEntry.Lifecycle
    ) async -> (failure: HiveError?, profile: StartupPhase) {
        let eligible = entries.filter { $0.lifecycle == (event == .setup ? .registered : .setUp) }
        let begin = MonotonicClock.nanoseconds()
        var firstFailure: HiveError?
        var syncTimings: [HandlerTiming] = []
        var asyncTimings: [HandlerTiming] = []

        /// Marks the module and times its call, which ran from `start` to `end`.
        func record(_ entry: ModuleEntry, _ failure: HiveError?, _ start: UInt64, _ end: UInt64) -> HandlerTiming {
            state.withLock { $0.setLifecycle(failure == nil ? success : .failed, of: entry) }
            if let failure, firstFailure == nil { firstFailure = failure }
            return HandlerTiming(
                module: entry.name, event: event.kind,
                duration: .nanoseconds(Int64(clamping: end &- start)),
                outcome: failure == nil ? .succeeded : .failed)
        }

        await withTaskGroup(of: (ModuleEntry, HiveError?, UInt64, UInt64).self) { group in
            for entry in eligible where entry.descriptor.isAsync {
                group.addTask {
                    let start = MonotonicClock.nanoseconds()
                    let failure = await self.call(entry, event, abandoning: false)
                    return (entry, failure, start, MonotonicClock.nanoseconds())
                }
            }
            for entry in eligible where !entry.descriptor.isAsync {
                if firstFailure != nil { break }
                let start = MonotonicClock.nanoseconds()
                let failure = await call(entry, event, abandoning: false)
                syncTimings.append(record(entry, failure, start, MonotonicClock.nanoseconds()))
            }
            for await (entry, failure, start, end) in group {
                asyncTimings.append(record(entry, failure, start, end))
            }
        }
        if observers.isActive {
            let timings = syncTimings + asyncTimings
            observers.eventDelivered(
                event, delivered: timings.count, failures: timings.count { $0.outcome != .succeeded },
                phase: .starting, since: begin)
        }
        let wall = Duration.nanoseconds(Int64(clamping: MonotonicClock.nanoseconds() &- begin))
        let profile = StartupPhase(event: event.kind, duration: wall, sync: syncTimings, async: asyncTimings)
        return (firstFailure, profile)
    }
}
