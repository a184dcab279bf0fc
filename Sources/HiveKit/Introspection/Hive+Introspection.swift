extension Hive {
    /// Every registered module in start order, with its lifecycle state.
    public var moduleStatuses: [ModuleStatus] {
        state.withLock { state in
            state.modules.map { module in
                let descriptor = module.descriptor
                return ModuleStatus(
                    name: module.name, type: descriptor.type, level: descriptor.level,
                    priority: descriptor.priority, isAsync: descriptor.isAsync,
                    state: module.lifecycle.state)
            }
        }
    }

    /// How many times each event was delivered to the hive's modules (start phases,
    /// ``send(_:)`` and reloads), for metrics.
    package var deliveredEvents: [EventKind: Int] {
        let counts = state.withLock { $0.delivered }
        var result: [EventKind: Int] = [:]
        for kind in EventKind.allCases where counts[Int(kind.rawValue)] > 0 { result[kind] = counts[Int(kind.rawValue)] }
        return result
    }
}
