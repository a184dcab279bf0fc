import Logging
import Synchronization

/// What the hive holds while a module runs: the instance and its logger, its descriptor
/// (``ModuleDescriptor``, what the module declared; a reload may replace it), where it is
/// in its lifecycle, the hook it is running (read by the stall check and the re-entry
/// check) and its statistics. What it shows observers is a ``ModuleStatus``.
///
/// One object from registration to removal, shared by the hive's order, every context
/// made for the module and every hook call, so that a hook still running across a reload
/// (or abandoned past its budget) records into the module the hive holds.
///
/// Every field is a constant, an atomic or behind a lock, so any task may read it. What
/// the fan-out reads for every module at every event (lifecycle, level, async flag, the
/// running hook) is atomic, never locked; the descriptor is behind a lock of its own,
/// which a hook call does not take unless the module reads its settings.
final class HostedModule: Sendable {
    /// Where a module is in its own lifecycle.
    enum Lifecycle: UInt8, AtomicRepresentable {
        /// Registered, not yet set up.
        case registered
        /// `setup` succeeded; `init` not yet.
        case setUp
        /// `init` succeeded: the module receives events.
        case active
        /// Its `setup` or `init` threw: it receives nothing more.
        case failed
        /// `teardown` ran.
        case tornDown
    }

    /// The module itself.
    let instance: any Module
    /// Its name, which no reload changes.
    let name: String
    /// Its logger: the hive's, with `module` metadata and the event being delivered.
    let logger: Logger
    /// Registration sequence number: the last key of the order.
    let sequence: Int
    private let declared: Mutex<ModuleDescriptor>
    // The one-byte fields side by side, so that none takes a word of padding of its own.
    private let currentLifecycle = Atomic<Lifecycle>(.registered)
    /// ``ModuleLevel`` raw value and async flag of the descriptor, for the fan-out.
    private let currentLevel: Atomic<UInt8>
    private let currentIsAsync: Atomic<Bool>
    /// The `EventKind` raw value of the running hook.
    let inFlightEvent = Atomic<UInt8>(0)
    /// The `EventKind` raw value of the abandoned hook.
    let abandonedEvent = Atomic<UInt8>(0)

    // The running hook.

    /// `CLOCK_MONOTONIC` nanoseconds when the running hook started; 0 when idle.
    let inFlightSince = Atomic<UInt64>(0)
    /// The `inFlightSince` value already reported as stalled, so a stall is logged once.
    let reportedStall = Atomic<UInt64>(0)
    /// ``CurrentTask/id`` of the task that called the running hook; 0 when idle.
    let hookTask = Atomic<Int>(0)
    /// `inFlightSince` of a hook abandoned past its budget that has not returned yet; 0 when
    /// none. Such a hook still holds a task, perhaps a thread: a stop that overruns names it.
    let abandonedSince = Atomic<UInt64>(0)
    /// `inFlightSince` of the last budgeted hook that returned, abandoned or not.
    let lastReturned = Atomic<UInt64>(0)
    /// Per-event statistics, indexed by `EventKind.rawValue` (one per event kind; a test
    /// keeps the count in step): inline, so a hook's record follows no further pointer.
    let stats = Mutex(InlineArray<12, HandlerStats>(repeating: HandlerStats()))
    /// Handlers of custom events by name (``ModuleContext/setCustomEventHandler(_:_:)``),
    /// called instead of the module's `custom` hook for those events.
    let customHandlers = Mutex<[String: @Sendable (ModuleContext) async throws -> Void]>([:])
    /// Whether ``customHandlers`` holds any: a custom event's delivery reads this one
    /// relaxed load for a module that set none.
    let hasCustomHandlers = Atomic<Bool>(false)

    /// `instance`, as `descriptor` declares it, registered `sequence`th; its logger derives
    /// from `baseLogger` and reports the event `currentEvent` holds.
    init(
        _ instance: any Module, as descriptor: ModuleDescriptor, sequence: Int, baseLogger: Logger,
        currentEvent: CurrentEvent
    ) {
        var descriptor = descriptor
        descriptor.settings.owner = descriptor.name
        let name = descriptor.name
        self.instance = instance
        self.name = name
        self.sequence = sequence
        logger = Logger(label: baseLogger.label) { _ in
            ModuleLogHandler(baseLogger.handler, module: name, currentEvent: currentEvent)
        }
        declared = Mutex(descriptor)
        currentLevel = Atomic(UInt8(descriptor.level.rawValue))
        currentIsAsync = Atomic(descriptor.isAsync)
    }

    /// Calls the hook `kind` names, or for a custom event the handler the module set for
    /// that event's name, if it set one.
    ///
    /// Inlined into every hook call (``Hive/call(_:_:hook:abandoning:settings:)``, which
    /// must stay small enough to be inlined in turn): a module with handlers costs one more
    /// case, and the lookup is out of line.
    @inline(__always)
    func invoke(_ kind: EventKind, _ context: ModuleContext) async throws {
        switch kind {
        case .setup: try await instance.setup(context)
        case .`init`: try await instance.initialize(context)
        case .ready: try await instance.ready(context)
        case .background: try await instance.background(context)
        case .foreground: try await instance.foreground(context)
        case .reload: try await instance.reload(context)
        case .memoryWarning: try await instance.memoryWarning(context)
        case .custom where hasCustomHandlers.load(ordering: .relaxed): try await invokeCustom(context)
        case .custom: try await instance.custom(context)
        case .terminate: try await instance.terminate(context)
        case .teardown: try await instance.teardown(context)
        case .unmount: try await instance.unmount(context)
        case .validateReload: try await instance.validateReload(context)
        }
    }

    /// Calls the handler the module set for the custom event's name, or its `custom` hook.
    /// Never inlined: the lookup would make every hook call too large to inline.
    @inline(never)
    private func invokeCustom(_ context: ModuleContext) async throws {
        if case .custom(let name, _) = context.event, let handler = customHandlers.withLock({ $0[name] }) {
            try await handler(context)
        } else {
            try await instance.custom(context)
        }
    }

    /// What the module declares now (after a reload, the new descriptor).
    var descriptor: ModuleDescriptor { declared.withLock { $0 } }

    /// Its settings now.
    var settings: Settings { declared.withLock { $0.settings } }

    /// Its own budget, if it names one.
    var budget: Duration? { declared.withLock { $0.budget } }

    /// The catalog type that built it, or `nil` for a module registered in code.
    var type: String? { declared.withLock { $0.type } }

    /// Its level now.
    var level: ModuleLevel { ModuleLevel(rawValue: Int(currentLevel.load(ordering: .relaxed))) ?? .normal }

    /// Whether its hooks run concurrently with the other modules'.
    var isAsync: Bool { currentIsAsync.load(ordering: .relaxed) }

    /// Where it is in its lifecycle.
    var lifecycle: Lifecycle {
        get { currentLifecycle.load(ordering: .relaxed) }
        set { currentLifecycle.store(newValue, ordering: .relaxed) }
    }

    /// Gives it a reload's descriptor (new settings, priority, budget…), keeping its
    /// instance, logger, statistics and registration sequence. The hive re-sorts its order.
    func replaceDescriptor(with descriptor: ModuleDescriptor) {
        var descriptor = descriptor
        descriptor.settings.owner = name
        declared.withLock { $0 = descriptor }
        currentLevel.store(UInt8(descriptor.level.rawValue), ordering: .relaxed)
        currentIsAsync.store(descriptor.isAsync, ordering: .relaxed)
    }
}

extension HostedModule {
    /// Marks a hook as running from `start`.
    @inline(__always)
    func begin(_ kind: EventKind, at start: UInt64) {
        hookTask.store(CurrentTask.id, ordering: .relaxed)
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
        let task = CurrentTask.id
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
