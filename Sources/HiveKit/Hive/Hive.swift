import Logging
import Synchronization

/// The module runtime (BeeHive's `BHModuleManager`): holds modules in order and delivers
/// lifecycle events to them, one event at a time.
///
/// ```swift
/// let hive = try Hive(HiveConfiguration(environment: .production), modules: [
///     (Store(), ModuleDescriptor(name: "store", level: .basic, priority: 100)),
///     (API(), ModuleDescriptor(name: "api", isAsync: true)),
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
/// interleave, a hook that calls ``send(_:)``, ``register(_:as:settingUp:)``, ``unregister(named:)``,
/// ``reload(to:catalog:refusingToRemoveAll:)``, ``start(rollingBack:)`` or ``stop()`` on its own hive, from its own task
/// or a child task of it, gets `.refusedEvent` (it would wait for itself); it may start a
/// `Task` that does, which runs after the current event. A caller cancelled while it waits
/// for its turn gets `.cancelled`, and its call never runs.
public final class Hive: Sendable {
    /// The environment every module's context reports.
    public let environment: HiveEnvironment
    let configuration: HiveConfiguration
    var logger: Logger { configuration.logger }
    let gate = EventGate()
    /// The turn holding ``gate`` (see `Hive+Turns.swift`); 0 between turns.
    let turnInProgress = Atomic<UInt64>(0)
    /// The hook kind being called: the `event` of a module's log line, whatever task logs it.
    let currentEvent = CurrentEvent()
    /// Times running hooks against their budgets (see `Hive+Stalls.swift`).
    let stallWatch = StallWatch()
    /// The smallest budget of any module, in nanoseconds: the earliest a hook that starts
    /// now can stall.
    let minimumBudget = Atomic<UInt64>(0)
    let state: Mutex<State>
    /// Services, routes and actions modules offer each other (see `Calls/Hive+Calls.swift`).
    let serviceStore = ServiceStore()
    let routeStore = RouteStore()
    let actionStore = ActionStore()
    /// Who watches events as they are delivered (see ``HiveObserver``).
    let observers = HiveObservers()
    /// Passed sockets and the descriptor store (see `Hive+Sockets.swift`).
    let socketTable: SocketTable

    /// An empty hive; register modules, then ``start(rollingBack:)``.
    public init(_ configuration: HiveConfiguration = HiveConfiguration()) {
        self.configuration = configuration
        self.environment = configuration.environment
        self.state = Mutex(State(defaultBudget: configuration.defaultBudget))
        self.socketTable = SocketTable(
            passed: configuration.passedDescriptors, store: configuration.descriptorStore,
            logger: configuration.logger)
        minimumBudget.store(configuration.defaultBudget.nanosecondsClamped, ordering: .relaxed)
    }

    /// A hive holding `modules`, each as its descriptor declares it (a disabled one is
    /// left out), not yet started.
    ///
    /// - Throws: ``HiveError`` (`.duplicateModule`) when two modules share a name.
    public convenience init(
        _ configuration: HiveConfiguration = HiveConfiguration(),
        modules: [(module: any Module, descriptor: ModuleDescriptor)]
    ) throws(HiveError) {
        self.init(configuration)
        state.withLock { $0.reserveCapacity(modules.count) }
        for (module, descriptor) in modules where descriptor.isEnabled { try add(module, as: descriptor) }
    }

    /// The current lifecycle phase.
    public var phase: HivePhase { state.withLock { $0.phase } }

    /// Calls (events, registrations, reloads, `start`) waiting for their turn behind the
    /// one in progress.
    public var pendingCalls: Int { gate.waiting }

    /// Registered module names in start order.
    package var moduleNames: [String] { state.withLock { $0.modules.map(\.name) } }

    /// The module registered under `name`, if any.
    public func module(named name: String) -> (any Module)? {
        state.withLock { $0.module(named: name)?.instance }
    }

    /// The descriptor (order, budget, current settings) of the module named `name`.
    public func descriptor(named name: String) -> ModuleDescriptor? {
        state.withLock { $0.module(named: name)?.descriptor }
    }

    /// The modules that currently receive events, in start order.
    package var activeModuleNames: [String] {
        state.withLock { $0.modules.filter { $0.lifecycle == .active }.map(\.name) }
    }

    /// Adds `module` to the order, as `descriptor` declares it, without running anything.
    @discardableResult
    func add(_ module: any Module, as descriptor: ModuleDescriptor) throws(HiveError) -> HostedModule {
        let hosted = try state.withLock { state throws(HiveError) in
            let name = descriptor.name
            guard !name.isEmpty else {
                throw HiveError(.invalidConfiguration, "a module needs a non-empty name")
            }
            guard !state.contains(name) else {
                throw HiveError(.duplicateModule, module: name, "a module named \(quoted: name) is already registered")
            }
            let hosted = HostedModule(
                module, as: descriptor, sequence: state.nextSequence, baseLogger: configuration.logger,
                currentEvent: currentEvent)
            state.nextSequence += 1
            state.insert(hosted, as: descriptor)
            return hosted
        }
        if let budget = descriptor.budget?.nanosecondsClamped, budget < minimumBudget.load(ordering: .relaxed) {
            setMinimumBudget(budget)
        }
        return hosted
    }

    /// The time budget of a hook call for modules that name none; a reload may change it.
    public var defaultBudget: Duration {
        get { state.withLock { $0.defaultBudget } }
        set {
            setMinimumBudget(state.withLock { state in
                state.defaultBudget = newValue
                return state.minimumBudget
            })
        }
    }

    /// Stores the smallest budget of any module. When it went down during a turn (a module
    /// joined, or a reload gave one a smaller budget), the stall timer is brought forward at
    /// once, so a hook starting now is seen the moment it passes its budget. Call it
    /// without holding the state's lock.
    func setMinimumBudget(_ nanoseconds: UInt64) {
        let previous = minimumBudget.exchange(nanoseconds, ordering: .relaxed)
        if nanoseconds < previous && turnInProgress.load(ordering: .sequentiallyConsistent) != 0 {
            watchForStalls()
        }
    }

    func budget(of module: HostedModule) -> Duration {
        module.budget ?? defaultBudget
    }
}
