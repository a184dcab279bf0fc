extension Hive {
    /// What a hive holds under its lock: its phase and its modules in start order, found by
    /// name in O(log n).
    struct State {
        var phase: HivePhase = .created
        /// Every registered module, in start order.
        private(set) var modules: [HostedModule] = []
        /// The order's index: the keys of `modules[i]` at `keys[i]`, so that a binary search
        /// reads them in place, without following a reference per step.
        private var keys: [OrderKey] = []
        /// Where each registered name is in the order: the duplicate check, and the key of
        /// a binary search for the module.
        private(set) var places: [String: OrderKey] = [:]
        private(set) var asyncCount = 0
        var nextSequence = 0
        var startup = StartupProfile()
        var defaultBudget: Duration
        /// Events delivered, by `EventKind.rawValue`.
        var delivered = [Int](repeating: 0, count: EventKind.allCases.count)
        /// The `background` that suspended the hive (its parameters, e.g. `reason`), for the
        /// modules that join while it is suspended.
        var suspendedBy: HiveEvent = .background

        /// The keys of the order of one module: level, then priority (higher first), then
        /// registration sequence.
        struct OrderKey {
            let level: ModuleLevel
            let priority: Int
            let sequence: Int

            init(_ descriptor: ModuleDescriptor, sequence: Int) {
                (level, priority, self.sequence) = (descriptor.level, descriptor.priority, sequence)
            }

            /// Whether `self` comes before `other` in the order.
            func precedes(_ other: OrderKey) -> Bool {
                if level != other.level { return level < other.level }
                if priority != other.priority { return priority > other.priority }
                return sequence < other.sequence
            }
        }

        init(defaultBudget: Duration) {
            self.defaultBudget = defaultBudget
        }

        /// Whether a module named `name` is registered.
        func contains(_ name: String) -> Bool {
            places[name] != nil
        }

        /// The module named `name`: a binary search by its place.
        func module(named name: String) -> HostedModule? {
            guard let place = places[name] else { return nil }
            let index = lowerBound(of: place)
            return index < keys.count && keys[index].sequence == place.sequence ? modules[index] : nil
        }

        /// The modules among `wanted` still registered, in the order's order.
        func registered(among wanted: [HostedModule]) -> [HostedModule] {
            let sequences = Set(wanted.map(\.sequence))
            return modules.filter { sequences.contains($0.sequence) }
        }

        mutating func reserveCapacity(_ count: Int) {
            modules.reserveCapacity(count)
            keys.reserveCapacity(count)
            places.reserveCapacity(count)
        }

        /// Inserts `module`, declared as `descriptor` and whose name is not registered yet,
        /// at its place in the order: at the end when it comes after the last module
        /// (modules registered in order), else where a binary search puts it (the order is
        /// sorted and a new module has the highest sequence number).
        mutating func insert(_ module: HostedModule, as descriptor: ModuleDescriptor) {
            let key = OrderKey(descriptor, sequence: module.sequence)
            places[module.name] = key
            if keys.last.map({ $0.precedes(key) }) ?? true {
                modules.append(module)
                keys.append(key)
            } else {
                let index = lowerBound(of: key)
                modules.insert(module, at: index)
                keys.insert(key, at: index)
            }
            if descriptor.isAsync { asyncCount += 1 }
        }

        /// Removes the modules named in `names` in one pass over the order.
        ///
        /// When that leaves the order and the index at less than a quarter of the room they
        /// have, they are copied into room of their size: arrays and dictionaries never
        /// shrink, and a reload from 30,000 modules to 20 would otherwise keep 4 MiB of
        /// empty room for good. Removing a few modules copies nothing.
        mutating func remove(_ names: Set<String>) {
            let sequences = Set(names.compactMap { places.removeValue(forKey: $0)?.sequence })
            guard !sequences.isEmpty else { return }
            modules.removeAll { sequences.contains($0.sequence) }
            keys.removeAll { sequences.contains($0.sequence) }
            asyncCount = modules.count { $0.isAsync }
            // Arrays and dictionaries never shrink by themselves: after a reload that went
            // from 34,000 modules to 20 they would hold megabytes. Copied at their size once
            // under a quarter full.
            Self.shrink(&modules)
            Self.shrink(&keys)
            if places.capacity > 64, places.count < places.capacity / 4 {
                var shrunk = [String: OrderKey](minimumCapacity: places.count)
                for (name, key) in places { shrunk[name] = key }
                places = shrunk
            }
        }

        /// `array` copied at its size when it is under a quarter full of its room.
        private static func shrink<Element>(_ array: inout [Element]) {
            guard array.capacity > 64, array.count < array.capacity / 4 else { return }
            var shrunk: [Element] = []
            shrunk.reserveCapacity(array.count)
            shrunk.append(contentsOf: array)
            array = shrunk
        }

        /// Gives the modules in `descriptors` (by name) their new descriptors, and restores
        /// the order; returns the names of those whose descriptor changed (where it is
        /// declared does not count).
        mutating func update(_ descriptors: [String: ModuleDescriptor]) -> [String] {
            var changed: [String] = []
            for (index, module) in modules.enumerated() {
                guard var descriptor = descriptors[module.name] else { continue }
                descriptor.settings.owner = module.name
                var current = module.descriptor
                guard descriptor != current else { continue }
                module.replaceDescriptor(with: descriptor)
                current.location = descriptor.location
                guard descriptor != current else { continue }
                keys[index] = OrderKey(descriptor, sequence: module.sequence)
                places[module.name] = keys[index]
                changed.append(module.name)
            }
            guard !changed.isEmpty else { return changed }
            let order = keys.indices.sorted { keys[$0].precedes(keys[$1]) }
            (modules, keys) = (order.map { modules[$0] }, order.map { keys[$0] })
            asyncCount = modules.count { $0.isAsync }
            return changed
        }

        /// The first index whose key does not come before `place` in the order.
        private func lowerBound(of place: OrderKey) -> Int {
            keys.withUnsafeBufferPointer { buffer in
                var low = 0
                var high = buffer.count
                while low < high {
                    let middle = (low + high) / 2
                    if buffer[middle].precedes(place) { low = middle + 1 } else { high = middle }
                }
                return low
            }
        }

        /// The smallest budget of any module, the default included, in nanoseconds.
        var minimumBudget: UInt64 {
            modules.reduce(defaultBudget.nanosecondsClamped) { smallest, module in
                module.budget.map { min(smallest, $0.nanosecondsClamped) } ?? smallest
            }
        }
    }
}
