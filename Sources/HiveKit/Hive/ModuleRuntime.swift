import Synchronization

/// The mutable part of a registered module that handler calls touch: which hook is in
/// flight since when (read by the stall monitor), on which task (to name the module when
/// the re-entry check refuses a call), and the profiler's statistics.
final class ModuleRuntime: Sendable {
    /// `CLOCK_MONOTONIC` nanoseconds when the running hook started; 0 when idle.
    let inFlightSince = Atomic<UInt64>(0)
    /// The `EventKind` raw value of the running hook.
    let inFlightEvent = Atomic<UInt8>(0)
    /// The `inFlightSince` value already reported as stalled, so a stall is logged once.
    let reportedStall = Atomic<UInt64>(0)
    /// ``TaskKey`` of the task that called the running hook; 0 when idle.
    let hookTask = Atomic<Int>(0)
    /// `inFlightSince` of a hook abandoned past its budget that has not returned yet; 0 when
    /// none. Such a hook still holds a task, perhaps a thread: a stop that overruns names it.
    let abandonedSince = Atomic<UInt64>(0)
    /// The `EventKind` raw value of the abandoned hook.
    let abandonedEvent = Atomic<UInt8>(0)
    /// `inFlightSince` of the last budgeted hook that returned, abandoned or not.
    let lastReturned = Atomic<UInt64>(0)
    /// Per-event statistics, indexed by `EventKind.rawValue` (one per event kind; a test
    /// keeps the count in step): inline, so a module's runtime is one allocation and a
    /// hook's record follows no further pointer.
    let stats = Mutex(InlineArray<12, HandlerStats>(repeating: HandlerStats()))
    /// Handlers of custom events by name (``ModuleContext/setCustomEventHandler(_:_:)``),
    /// called instead of the module's `custom` hook for those events.
    let customHandlers = Mutex<[String: @Sendable (ModuleContext) async throws -> Void]>([:])
    /// Whether ``customHandlers`` holds any: a custom event's delivery reads this one
    /// relaxed load for a module that set none.
    let hasCustomHandlers = Atomic<Bool>(false)

    /// Marks a hook as running from `start`.
    @inline(__always)
    func begin(_ kind: EventKind, at start: UInt64) {
        hookTask.store(TaskKey.current, ordering: .relaxed)
        inFlightEvent.store(kind.rawValue, ordering: .relaxed)
        inFlightSince.store(start, ordering: .releasing)
    }

    /// Marks the hook as returned and records its duration and outcome.
    @inline(__always)
    func end(_ kind: EventKind, nanoseconds: UInt64, outcome: HandlerOutcome) {
        hookTask.store(0, ordering: .relaxed)
        inFlightSince.store(0, ordering: .releasing)
        stats.withLock { $0[Int(kind.rawValue)].record(nanoseconds: nanoseconds, outcome: outcome) }
    }

    /// Records an abandoned hook (past its budget at a stop, started at `start`) without
    /// waiting for it; it is listed as abandoned until it returns.
    func abandon(_ kind: EventKind, since start: UInt64, nanoseconds: UInt64) {
        hookTask.store(0, ordering: .relaxed)
        inFlightSince.store(0, ordering: .releasing)
        abandonedEvent.store(kind.rawValue, ordering: .relaxed)
        abandonedSince.store(start, ordering: .sequentiallyConsistent)
        // The hook may have returned between the verdict and the store above.
        if lastReturned.load(ordering: .sequentiallyConsistent) == start {
            _ = abandonedSince.compareExchange(expected: start, desired: 0, ordering: .relaxed)
        }
        stats.withLock { $0[Int(kind.rawValue)].record(nanoseconds: nanoseconds, outcome: .abandoned) }
    }

    /// Runs a hook started at `start` on a task of its own (a budgeted call), recording
    /// that task as the hook's for as long as it runs; an abandoned hook finishing late
    /// clears only its own abandoned mark.
    func runningHook(since start: UInt64, _ body: () async throws -> Void) async throws {
        let task = TaskKey.current
        hookTask.store(task, ordering: .relaxed)
        defer {
            _ = hookTask.compareExchange(expected: task, desired: 0, ordering: .relaxed)
            lastReturned.store(start, ordering: .sequentiallyConsistent)
            _ = abandonedSince.compareExchange(expected: start, desired: 0, ordering: .sequentiallyConsistent)
        }
        try await body()
    }

    /// The abandoned hook that has not returned yet, and how long ago it started, if any.
    func abandoned(now: UInt64) -> (kind: EventKind, elapsed: UInt64)? {
        let since = abandonedSince.load(ordering: .acquiring)
        guard since != 0, let kind = EventKind(rawValue: abandonedEvent.load(ordering: .relaxed)) else { return nil }
        return (kind, now > since ? now - since : 0)
    }

    /// The running hook and how long it has run, if any.
    func inFlight(now: UInt64) -> (kind: EventKind, since: UInt64, elapsed: UInt64)? {
        let since = inFlightSince.load(ordering: .acquiring)
        guard since != 0, let kind = EventKind(rawValue: inFlightEvent.load(ordering: .relaxed)) else {
            return nil
        }
        return (kind, since, now > since ? now - since : 0)
    }
}
