import Logging

/// A registered module as the hive keeps it: descriptor, instance, logger, place in the
/// order and lifecycle. A value: the hive swaps whole entries under its lock, so an
/// event's snapshot of them never changes while it is being delivered.
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

    var descriptor: ModuleDescriptor
    let module: any Module
    /// The catalog type that built it, or `nil` for a module registered in code (which
    /// a configuration reload never removes).
    let type: String?
    /// Registration sequence number: the last key of the order.
    let sequence: Int
    let logger: Logger
    let runtime: ModuleRuntime
    var lifecycle: Lifecycle = .registered

    init(
        _ registration: ModuleRegistration, type: String?, sequence: Int, baseLogger: Logger,
        currentEvent: CurrentEvent
    ) {
        var descriptor = registration.descriptor
        descriptor.settings.owner = descriptor.name
        self.descriptor = descriptor
        self.module = registration.module
        self.type = type
        self.sequence = sequence
        let name = descriptor.name
        self.logger = Logger(label: baseLogger.label) { _ in
            ModuleLogHandler(baseLogger.handler, module: name, currentEvent: currentEvent)
        }
        self.runtime = ModuleRuntime()
    }

    var name: String { descriptor.name }
    var settings: Settings { descriptor.settings }

    /// Whether `self` comes before `other`: level, then priority (higher first), then
    /// registration order.
    func precedes(_ other: ModuleEntry) -> Bool {
        if descriptor.level != other.descriptor.level { return descriptor.level < other.descriptor.level }
        if descriptor.priority != other.descriptor.priority { return descriptor.priority > other.descriptor.priority }
        return sequence < other.sequence
    }
}
