import Synchronization

extension Hive {
    /// Turns across every hive of the process, so a ``HookMark`` matches one turn only.
    private static let turns = Atomic<UInt64>(0)

    /// Runs `body` as one turn of the hive's queue: after every earlier event,
    /// registration and reload, and before any later one, with the tasks that run hooks
    /// marked (``HookMark``).
    ///
    /// - Throws: ``HiveError`` `.refusedEvent` when called from one of this hive's running
    ///   hooks; `.cancelled` when the calling task is cancelled before its turn came
    ///   (nothing was delivered); or what `body` throws.
    func takingTurn<T>(
        _ what: @autoclosure () -> String, event: HiveEvent,
        _ body: () async throws(HiveError) -> T
    ) async throws(HiveError) -> T {
        try refuseCallFromOwnHook(what(), event: event)
        do {
            try await gate.acquire()
        } catch {
            throw HiveError(
                .cancelled, event: event, "\(what()) was cancelled while it waited for its turn; nothing was delivered")
        }
        let turn = Self.turns.add(1, ordering: .relaxed).newValue
        turnInProgress.store(turn, ordering: .sequentiallyConsistent)
        watchForStalls()
        defer {
            currentEvent.set(nil)
            turnInProgress.store(0, ordering: .relaxed)
            gate.release()
        }
        let mark = HookMark(turn: turn, task: TaskKey.current, module: nil)
        let outcome: TurnOutcome<T> = await HookMark.$current.withValue(mark) {
            do throws(HiveError) {
                return .returned(try await body())
            } catch {
                return .failed(error)
            }
        }
        switch outcome {
        case .returned(let value): return value
        case .failed(let error): throw error
        }
    }

    /// Refuses a call into the queue from a task running one of this hive's hooks, or from
    /// a child task of one (`async let`, a task group): the call would wait for the turn
    /// in progress, which waits for the hook, which waits for the call — forever.
    ///
    /// A task the hook started with `Task {}` or `Task.detached` is not refused: the hook
    /// does not wait for it, so its call simply queues behind the current turn. (A child
    /// task of such a task, while the turn that started it lasts, is taken for the hook's
    /// own: the mark cannot tell them apart.) With no hook running, the check is one
    /// task-local lookup.
    func refuseCallFromOwnHook(_ what: @autoclosure () -> String, event: HiveEvent) throws(HiveError) {
        guard let mark = HookMark.current,
            mark.turn == turnInProgress.load(ordering: .relaxed),
            mark.task == TaskKey.current || TaskKey.isChildTask
        else { return }
        let module = mark.module ?? moduleRunningHook(on: TaskKey.current) ?? moduleRunningHook(on: mark.task)
        let running = module.flatMap { name in
            state.withLock { $0.entry(named: name) }?.runtime.inFlight(now: MonotonicClock.nanoseconds())?.kind
        }
        throw HiveError(
            .refusedEvent, module: module, event: event,
            "\(what()) called from inside \(module == nil ? "a" : "the module's own") \(running.map { "\($0)" } ?? "running") hook "
                + "would wait for that event to finish, forever; start a Task for it instead")
    }

    /// The module whose hook was called on the task `task`, or, when none was, the only
    /// module whose hook runs. A linear search, made only to name the module in a refusal.
    private func moduleRunningHook(on task: Int) -> String? {
        state.withLock { state in
            let now = MonotonicClock.nanoseconds()
            let (exact, running) = state.entries.withUnsafeBufferPointer { buffer in
                (
                    buffer.indices.first { buffer[$0].runtime.hookTask.load(ordering: .relaxed) == task },
                    buffer.indices.filter { buffer[$0].runtime.inFlight(now: now) != nil }
                )
            }
            guard let index = exact ?? (running.count == 1 ? running[0] : nil) else { return nil }
            return state.entries[index].name
        }
    }
}

/// How a turn's body ended. Not a `Result`: the metadata of `Result<T, HiveError>` checks
/// `HiveError: Error` at run time, a scan of every conformance record in the binary the
/// first time, on the start-up path.
private enum TurnOutcome<T> {
    case returned(T)
    case failed(HiveError)
}
