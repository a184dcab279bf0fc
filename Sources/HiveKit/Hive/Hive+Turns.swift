import Synchronization

extension Hive {
    /// What a task running a hive's hooks carries (a task-local value, which child tasks
    /// inherit): the turn it belongs to, the task that runs it, and the module, when known.
    ///
    /// A call into the hive's queue (an event, a registration, a reload) from such a task
    /// while that turn lasts would wait behind the turn that waits for it: the hive refuses
    /// it. Reading the value costs a task-local lookup, nothing when no hook runs.
    struct Turn: Sendable {
        /// The turn, unique in the process (see ``Hive/turnInProgress``).
        let id: UInt64
        /// ``CurrentTask/id`` of the task that runs the hooks: the turn's own task (async
        /// modules' hooks run in child tasks of it), or the task of a budgeted hook.
        let task: Int
        /// The module whose hook runs on `task`; `nil` on the turn's own task, where many
        /// modules' hooks run.
        let module: String?

        /// The turn whose hooks the current task runs (or descends from), if any.
        @TaskLocal static var current: Turn?

        /// The same turn, for a hook of `module` that runs on a task of its own.
        func forHook(of module: String) -> Turn {
            Turn(id: id, task: CurrentTask.id, module: module)
        }
    }

    /// Turns across every hive of the process, so a ``Turn`` matches one turn only.
    private static let turns = Atomic<UInt64>(0)

    /// Runs `body` as one turn of the hive's queue: after every earlier event,
    /// registration and reload, and before any later one, with the tasks that run hooks
    /// marked (``Turn``).
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
        let outcome: TurnOutcome<T> = await Turn.$current.withValue(Turn(id: turn, task: CurrentTask.id, module: nil)) {
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
    /// own: its ``Turn`` cannot tell them apart.) With no hook running, the check is one
    /// task-local lookup.
    func refuseCallFromOwnHook(_ what: @autoclosure () -> String, event: HiveEvent) throws(HiveError) {
        guard let turn = Turn.current,
            turn.id == turnInProgress.load(ordering: .relaxed),
            turn.task == CurrentTask.id || CurrentTask.isChildTask
        else { return }
        let module = turn.module ?? moduleRunningHook(on: CurrentTask.id) ?? moduleRunningHook(on: turn.task)
        let running = module.flatMap { name in
            state.withLock { $0.module(named: name) }?.inFlight(now: MonotonicClock.nanoseconds())?.kind
        }
        throw HiveError(
            .refusedEvent, module: module, event: event,
            "\(what()) called from inside \(module == nil ? "a" : "the module's own") \(running.map { "\($0)" } ?? "running") hook "
                + "would wait for that event to finish, forever; start a Task for it instead")
    }

    /// The module whose hook was called on the task `task`, or, when none was, the only
    /// module whose hook runs. A linear search, made only to name the module in a refusal.
    private func moduleRunningHook(on task: Int) -> String? {
        let modules = state.withLock { $0.modules }
        if let exact = modules.first(where: { $0.hookTask.load(ordering: .relaxed) == task }) { return exact.name }
        let now = MonotonicClock.nanoseconds()
        let running = modules.filter { $0.inFlight(now: now) != nil }
        return running.count == 1 ? running[0].name : nil
    }
}

/// How a turn's body ended. Not a `Result`: the metadata of `Result<T, HiveError>` checks
/// `HiveError: Error` at run time, a scan of every conformance record in the binary the
/// first time, on the start-up path.
private enum TurnOutcome<T> {
    case returned(T)
    case failed(HiveError)
}
