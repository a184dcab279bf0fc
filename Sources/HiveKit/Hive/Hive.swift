import Logging
import Synchronization

/// The module runtime (BeeHive's `BHModuleManager`): holds modules in order and delivers
/// lifecycle events to them, one event at a time.
///
/// ```swift
/// let hive = try Hive(HiveConfiguration(environment: .production), modules: [
///     ModuleRegistration(name: "store", level: .basic, priority: 100, module: Store()),
///     ModuleRegistration(name: "api", isAsync: true, module: API()),
/// ])
/// try await hive.start()              // setup, then init, in order
/// try await hive.send(.ready)
/// try await hive.send(.reload)
/// await hive.stop()                   // terminate in order, teardown in reverse
/// ```
///
/// Events, registrations and reloads queue behind each other in arrival order
/// (``HivePhase`` says which events each phase accepts). All methods are safe to call
/// from any task, including from inside a module's hook for lookups. Since events never
/// interleave, a hook that calls ``send(_:)``, ``register(_:)``, ``unregister(named:)``,
/// ``reload(to:catalog:)``, ``start()`` or ``stop()`` on its own hive, from its own task
/// or a child task of it, gets `.refusedEvent` (it would wait for itself); it may start a
/// `Task` that does, which runs after the current event. A caller cancelled while it waits
/// for its turn gets `.cancelled`, and its call never runs.
public final class Hive: Sendable {
    struct State {
        var phase: HivePhase = .created
        /// Every registered module, in start order.
        var entries: [ModuleEntry] = []
        /// The names in `entries`, for the duplicate check.
        var names: Set<String> = []
        var asyncCount = 0
        var nextSequence = 0
        var startup = StartupProfile()
        var defaultBudget: Duration
        /// Events delivered, by `EventKind.rawValue`.
        var delivered = [Int](repeating: 0, count: EventKind.allCases.count)
        /// Where ``setLifecycle(_:of:)`` last found its entry.
        var lastSet = 0
        /// The `background` that suspended the hive (its parameters, e.g. `reason`), for the
        /// modules that join while it is suspended.
        var suspendedBy: HiveEvent = .background

        // Entries are searched through a buffer pointer, reading one field in place:
        // iterating them (`first(where:)`, even `entries[i].name`) copies whole entries,
        // and registering n modules that way was quadratic in copies.

        /// The index of the module named `name`.
        func index(named name: String) -> Int? {
            entries.withUnsafeBufferPointer { buffer in
                buffer.indices.first { buffer[$0].descriptor.name == name }
            }
        }

        /// The module named `name`.
        func entry(named name: String) -> ModuleEntry? {
            index(named: name).map { entries[$0] }
        }

        /// Inserts `entry`, whose name is already in `names`, at its place in the order: at
        /// the end when it comes after the last entry (modules registered in order), else
        /// where a binary search puts it (the entries are sorted and a new entry has the
        /// highest sequence number).
        mutating func insert(_ entry: ModuleEntry) {
            if entries.last.map({ $0.precedes(entry) }) ?? true {
                entries.append(entry)
            } else {
                entries.insert(entry, at: lowerBound(of: entry))
            }
            if entry.isAsync { asyncCount += 1 }
        }

        /// The first index whose entry does not come before `entry` in the order (level,
        /// then priority, higher first, then sequence): a binary search that reads the
        /// three fields in place.
        func lowerBound(of entry: ModuleEntry) -> Int {
            let (level, priority, sequence) = (entry.level, entry.priority, entry.sequence)
            return entries.withUnsafeBufferPointer { buffer in
                var low = 0
                var high = buffer.count
                while low < high {
                    let middle = (low + high) / 2
                    let (otherLevel, otherPriority) = (buffer[middle].level, buffer[middle].priority)
                    let before =
                        otherLevel != level ? otherLevel < level
                        : otherPriority != priority ? otherPriority > priority
                        : buffer[middle].sequence < sequence
                    if before { low = middle + 1 } else { high = middle }
                }
                return low
            }
        }

        /// Where `entry` is in the order, if it is still registered: a binary search by its
        /// place, or, when a reload has moved it since `entry` was taken, a linear one by
        /// its sequence number.
        func position(of entry: ModuleEntry) -> Int? {
            let sequence = entry.sequence
            let guess = lowerBound(of: entry)
            return entries.withUnsafeBufferPointer { buffer in
                if guess < buffer.count && buffer[guess].sequence == sequence { return guess }
                return buffer.indices.first { buffer[$0].sequence == sequence }
            }
        }

        /// The smallest budget of any module, the default included, in nanoseconds.
        var minimumBudget: UInt64 {
            entries.withUnsafeBufferPointer { buffer in
                buffer.indices.reduce(defaultBudget.nanosecondsClamped) { smallest, index in
                    buffer[index].descriptor.budget.map { min(smallest, $0.nanosecondsClamped) } ?? smallest
                }
            }
        }

        mutating func remove(named name: String) {
            guard let index = index(named: name) else { return }
            if entries[index].isAsync { asyncCount -= 1 }
            entries.remove(at: index)
            names.remove(name)
        }

        /// Sets the lifecycle of `entry`, if it is still registered: found beside the last
        /// one set (fan-outs go through the order forwards or backwards), else by its place
        /// in the order, in O(log n).
        mutating func setLifecycle(_ lifecycle: ModuleEntry.Lifecycle, of entry: ModuleEntry) {
            guard let index = position(of: entry, near: lastSet) ?? position(of: entry) else { return }
            lastSet = index
            entries[index].lifecycle = lifecycle
        }

        /// The index of `entry` if it is at `index`, just after or just before it.
        private func position(of entry: ModuleEntry, near index: Int) -> Int? {
            entries.withUnsafeBufferPointer { buffer in
                for candidate in index - 1...index + 1 where buffer.indices.contains(candidate) {
                    if buffer[candidate].sequence == entry.sequence { return candidate }
                }
                return nil
            }
        }
    }

    /// The environment every module's context reports.
    public let environment: HiveEnvironment
    let configuration: HiveConfiguration
    var logger: Logger { configuration.logger }
    let gate = EventGate()
    /// The turn holding ``gate`` (see `Hive+Reentry.swift`); 0 between turns.
    let turnInProgress = Atomic<UInt64>(0)
    /// The hook kind being called: the `event` of a module's log line, whatever task logs it.
    let currentEvent = CurrentEvent()
    /// Times running hooks against their budgets (see `Hive+Stalls.swift`).
    let stallWatch = StallWatch()
    /// The smallest budget of any module, in nanoseconds: the earliest a hook that starts
    /// now can stall.
    let minimumBudget = Atomic<UInt64>(0)
    let state: Mutex<State>
    /// Services, routes and actions modules offer each other (see `Hive+Calls.swift`).
    let serviceStore = ServiceStore()
    let routeStore = RouteStore()
    let actionStore = ActionStore()
    /// Who watches events as they are delivered (see ``HiveObserver``).
    let observers = HiveObservers()
    /// Passed sockets and the descriptor store (see `Hive+Sockets.swift`).
    let socketTable: SocketTable

    /// An empty hive; register modules, then ``start()``.
    public init(_ configuration: HiveConfiguration = HiveConfiguration()) {
        self.configuration = configuration
        self.environment = configuration.environment
        self.state = Mutex(State(defaultBudget: configuration.defaultBudget))
        self.socketTable = SocketTable(
            passed: configuration.passedDescriptors, store: configuration.descriptorStore,
            logger: configuration.logger)
        minimumBudget.store(configuration.defaultBudget.nanosecondsClamped, ordering: .relaxed)
    }

    /// A hive holding `modules`, not yet started.
    ///
    /// - Throws: ``HiveError`` (`.duplicateModule`) when two modules share a name.
    public convenience init(
        _ configuration: HiveConfiguration = HiveConfiguration(),
        modules: [ModuleRegistration]
    ) throws(HiveError) {
        self.init(configuration)
        state.withLock { state in
            state.entries.reserveCapacity(modules.count)
            state.names.reserveCapacity(modules.count)
        }
        for module in modules { try add(module, type: nil) }
    }

    /// The current lifecycle phase.
    public var phase: HivePhase { state.withLock { $0.phase } }

    /// Calls (events, registrations, reloads, `start`) waiting for their turn behind the
    /// one in progress.
    public var pendingCalls: Int { gate.waiting }

    /// Registered module names in start order.
    public var moduleNames: [String] { state.withLock { $0.entries.map(\.name) } }

    /// The module registered under `name`, if any.
    public func module(named name: String) -> (any Module)? {
        state.withLock { $0.entry(named: name)?.module }
    }

    /// The descriptor (order, budget, current settings) of the module named `name`.
    public func descriptor(named name: String) -> ModuleDescriptor? {
        state.withLock { $0.entry(named: name)?.descriptor }
    }

    /// The modules that currently receive events, in start order.
    public var activeModuleNames: [String] {
        state.withLock { $0.entries.filter { $0.lifecycle == .active }.map(\.name) }
    }

    /// Adds an entry to the order without running anything.
    @discardableResult
    func add(_ registration: ModuleRegistration, type: String?) throws(HiveError) -> ModuleEntry {
        try state.withLock { state throws(HiveError) in
            let name = registration.descriptor.name
            guard !name.isEmpty else {
                throw HiveError(.invalidConfiguration, "a module needs a non-empty name")
            }
            guard state.names.insert(name).inserted else {
                throw HiveError(.duplicateModule, module: name, "a module named '\(name)' is already registered")
            }
            let entry = ModuleEntry(
                registration, type: type, sequence: state.nextSequence, baseLogger: configuration.logger,
                currentEvent: currentEvent)
            state.nextSequence += 1
            state.insert(entry)
            if let budget = entry.descriptor.budget?.nanosecondsClamped, budget < minimumBudget.load(ordering: .relaxed) {
                minimumBudget.store(budget, ordering: .relaxed)
            }
            return entry
        }
    }

    /// The time budget of a hook call for modules that name none; a reload may change it.
    public var defaultBudget: Duration {
        get { state.withLock { $0.defaultBudget } }
        set {
            state.withLock { state in
                state.defaultBudget = newValue
                minimumBudget.store(state.minimumBudget, ordering: .relaxed)
            }
        }
    }

    func budget(of entry: ModuleEntry) -> Duration {
        entry.descriptor.budget ?? defaultBudget
    }
}
