import Logging

/// A registered module as the hive keeps it: what it is (``RegisteredModule``, one
/// reference) and where it is in its lifecycle. A value: the hive swaps whole entries under
/// its lock, so an event's snapshot of them never changes while it is being delivered.
///
/// One reference, so that copying an entry — the fan-out does it for every module at every
/// event — retains one object instead of every string, dictionary and box a descriptor and
/// a logger hold (with 100,000 modules, each of those a cache miss of its own).
struct ModuleEntry: Sendable {
    /// Where a module is in its own lifecycle.
    enum Lifecycle: Sendable, Hashable {
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

    private(set) var registered: RegisteredModule
    var lifecycle: Lifecycle = .registered
    // The keys of the order and the async flag, kept beside the reference: placing an
    // entry and fanning out read them without following it.
    private(set) var level: ModuleLevel
    private(set) var priority: Int
    private(set) var isAsync: Bool
    /// Registration sequence number: the last key of the order.
    let sequence: Int

    init(
        _ registration: ModuleRegistration, type: String?, sequence: Int, baseLogger: Logger,
        currentEvent: CurrentEvent
    ) {
        var descriptor = registration.descriptor
        descriptor.settings.owner = descriptor.name
        let name = descriptor.name
        (level, priority, isAsync, self.sequence) = (descriptor.level, descriptor.priority, descriptor.isAsync, sequence)
        registered = RegisteredModule(
            descriptor: descriptor, module: registration.module, type: type,
            logger: Logger(label: baseLogger.label) { _ in
                ModuleLogHandler(baseLogger.handler, module: name, currentEvent: currentEvent)
            },
            runtime: ModuleRuntime())
    }

    /// The module's descriptor; setting it (a reload's new settings, priority or budget)
    /// keeps the instance, logger, runtime and place in the registration order.
    var descriptor: ModuleDescriptor {
        get { registered.descriptor }
        set {
            registered = registered.replacing(newValue)
            (level, priority, isAsync) = (newValue.level, newValue.priority, newValue.isAsync)
        }
    }
    var module: any Module { registered.module }
    /// The catalog type that built it, or `nil` for a module registered in code (which
    /// a configuration reload never removes).
    var type: String? { registered.type }
    var logger: Logger { registered.logger }
    var runtime: ModuleRuntime { registered.runtime }
    var name: String { registered.descriptor.name }
    var settings: Settings { registered.descriptor.settings }

    /// Calls the hook `kind` names, or for a custom event the handler the module set for
    /// that event's name, if it set one.
    @inline(__always)
    func invoke(_ kind: EventKind, _ context: ModuleContext) async throws {
        if kind == .custom, runtime.hasCustomHandlers.load(ordering: .relaxed), case .custom(let name, _) = context.event,
            let handler = runtime.customHandlers.withLock({ $0[name] })
        {
            return try await handler(context)
        }
        try await module.invoke(kind, context)
    }

    /// Whether `self` comes before `other`: level, then priority (higher first), then
    /// registration order.
    func precedes(_ other: ModuleEntry) -> Bool {
        if level != other.level { return level < other.level }
        if priority != other.priority { return priority > other.priority }
        return sequence < other.sequence
    }
}
