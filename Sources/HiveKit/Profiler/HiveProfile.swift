/// A snapshot of the time profiler (BeeHive's `BHTimeProfiler`): every module's
/// handler statistics per event, and the start-up critical path.
public struct HiveProfile: Sendable {
    /// One module's statistics.
    public struct Module: Sendable {
        /// The module's name.
        public let name: String
        /// Its level.
        public let level: ModuleLevel
        /// Its priority.
        public let priority: Int
        /// Whether it is async.
        public let isAsync: Bool
        /// Statistics per event kind the module received (or is receiving, past its budget).
        public let events: [EventKind: HandlerStats]
        /// Statistics per route and action the module offers, keyed `route PATTERN` and
        /// `action NAME` (only those called at least once).
        public let calls: [String: HandlerStats]

        /// Time spent in all of this module's hooks.
        public var total: Duration { events.values.reduce(.zero) { $0 + $1.total } }
    }

    /// Modules in start order.
    public let modules: [Module]
    /// How start-up spent its time.
    public let startup: StartupProfile

    /// Statistics for one module and event, if it received that event.
    public func stats(module: String, event: EventKind) -> HandlerStats? {
        modules.first { $0.name == module }?.events[event]
    }

    /// Every (module, event) pair by total time spent, longest first: `hived ctl blame`.
    /// Ties keep start order, then event order, so the list is the same on every read.
    public var blame: [(module: String, event: EventKind, stats: HandlerStats)] {
        modules.flatMap { module in
            module.events.sorted { $0.key.rawValue < $1.key.rawValue }.map { (module.name, $0.key, $0.value) }
        }
        .enumerated()
        .sorted { $0.element.stats.total != $1.element.stats.total
            ? $0.element.stats.total > $1.element.stats.total : $0.offset < $1.offset }
        .map(\.element)
    }
}

extension Hive {
    /// The profiler's current figures.
    public var profile: HiveProfile {
        let (hosted, startup) = state.withLock { ($0.modules, $0.startup) }
        let calls = callStatsByOwner()
        let modules = hosted.map { module in
            let stats = module.stats.withLock { $0 }
            var events: [EventKind: HandlerStats] = [:]
            // A first call still running but already stalled counts too.
            for kind in EventKind.allCases where stats[Int(kind.rawValue)].calls > 0 || stats[Int(kind.rawValue)].stalls > 0 {
                events[kind] = stats[Int(kind.rawValue)]
            }
            let descriptor = module.descriptor
            return HiveProfile.Module(
                name: module.name, level: descriptor.level, priority: descriptor.priority,
                isAsync: descriptor.isAsync, events: events, calls: calls[module.name] ?? [:])
        }
        return HiveProfile(modules: modules, startup: startup)
    }
}
