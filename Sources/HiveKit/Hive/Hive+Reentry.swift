/// Identifies the task that runs a hook, so a hook calling back into its own hive can be
/// told apart from any other caller.
enum TaskKey {
    /// A key for the current task (its address); 0 outside any task. Only compared while
    /// the keyed task runs a hook, so a freed task's address is never mistaken for it.
    @inline(__always)
    static var current: Int {
        withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: Int.self) } ?? 0 }
    }
}

extension Hive {
    /// Refuses a queued operation (an event, a registration, a reload) called from the task
    /// running one of this hive's hooks: it would wait behind the very event that is
    /// waiting for the hook, forever.
    ///
    /// Only the hook's own task is recognised: a hook that awaits such a call from a child
    /// task (`async let`, a task group) still waits forever; one that starts an unstructured
    /// `Task` for it is fine, the call queues behind the current event.
    func refuseCallFromOwnHook(_ what: @autoclosure () -> String, event: HiveEvent) throws(HiveError) {
        let task = TaskKey.current
        guard task != 0 else { return }
        let caller = state.withLock { state -> ModuleEntry? in
            // Through a buffer pointer: iterating the entries would copy every one of them.
            let found = state.entries.withUnsafeBufferPointer { buffer in
                buffer.indices.first { buffer[$0].runtime.hookTask.load(ordering: .relaxed) == task }
            }
            guard let index = found else { return nil }
            return state.entries[index]
        }
        guard let caller else { return }
        let running = caller.runtime.inFlight(now: MonotonicClock.nanoseconds())?.kind
        throw HiveError(
            .refusedEvent, module: caller.name, event: event,
            "\(what()) called from inside the module's own \(running.map { "\($0)" } ?? "running") hook "
                + "would wait for that event to finish, forever; start a Task for it instead")
    }
}
