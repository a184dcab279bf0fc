extension Hive {
    /// What a hive holds under its lock: its phase and its modules in start order, found by
    /// name in O(log n).
    struct State {
        var phase: HivePhase = .created
        /// Every registered module, in start order.
        private(set) var entries: [ModuleEntry] = []
        /// Where each registered name is in the order (level, priority, sequence): the
        /// duplicate check, and the key of a binary search for the entry.
        private(set) var places: [String: Place] = [:]
        private(set) var asyncCount = 0
        var nextSequence = 0
        var startup = StartupProfile()
        var defaultBudget: Duration
        /// Events delivered, by `EventKind.rawValue`.
        var delivered = [Int](repeating: 0, count: EventKind.allCases.count)
        /// Where ``setLifecycle(_:of:)`` last found its entry.
        private var lastSet = 0
        /// The `background` that suspended the hive (its parameters, e.g. `reason`), for the
        /// modules that join while it is suspended.
        var suspendedBy: HiveEvent = .background

        /// The keys of the order of one entry.
        struct Place {
            let level: ModuleLevel
            let priority: Int
            let sequence: Int

            init(_ entry: ModuleEntry) {
                (level, priority, sequence) = (entry.level, entry.priority, entry.sequence)
            }
        }

        init(defaultBudget: Duration) {
            self.defaultBudget = defaultBudget
        }

        // Entries are searched through a buffer pointer, reading one field in place:
        // iterating them (`first(where:)`, even `entries[i].name`) copies whole entries,
        // and registering n modules that way was quadratic in copies.

        /// Whether a module named `name` is registered.
        func contains(_ name: String) -> Bool {
            places[name] != nil
        }

        /// The index of the module named `name`: a binary search by its place.
        func index(named name: String) -> Int? {
            guard let place = places[name] else { return nil }
            let index = lowerBound(of: place)
            return index < entries.count && entries[index].sequence == place.sequence ? index : nil
        }

        /// The module named `name`.
        func entry(named name: String) -> ModuleEntry? {
            index(named: name).map { entries[$0] }
        }

        mutating func reserveCapacity(_ count: Int) {
            entries.reserveCapacity(count)
            places.reserveCapacity(count)
        }

        /// Inserts `entry`, whose name is not registered yet, at its place in the order: at
        /// the end when it comes after the last entry (modules registered in order), else
        /// where a binary search puts it (the entries are sorted and a new entry has the
        /// highest sequence number).
        mutating func insert(_ entry: ModuleEntry) {
            let place = Place(entry)
            places[entry.name] = place
            if entries.last.map({ $0.precedes(entry) }) ?? true {
                entries.append(entry)
            } else {
                entries.insert(entry, at: lowerBound(of: place))
            }
            if entry.isAsync { asyncCount += 1 }
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
            entries.removeAll { sequences.contains($0.sequence) }
            asyncCount = entries.count { $0.isAsync }
            if entries.capacity > 64, entries.count < entries.capacity / 4 {
                var shrunk: [ModuleEntry] = []
                shrunk.reserveCapacity(entries.count)
                shrunk.append(contentsOf: entries)
                entries = shrunk
            }
            if places.capacity > 64, places.count < places.capacity / 4 {
                var shrunk = [String: Place](minimumCapacity: places.count)
                for (name, place) in places { shrunk[name] = place }
                places = shrunk
            }
        }

        /// Gives the modules in `descriptors` (by name) their new descriptors, and restores
        /// the order; returns the names of those whose descriptor changed.
        mutating func update(_ descriptors: [String: ModuleDescriptor]) -> [String] {
            var changed: [String] = []
            for index in entries.indices {
                let name = entries[index].name
                guard let descriptor = descriptors[name], entries[index].descriptor != descriptor else { continue }
                entries[index].descriptor = descriptor
                places[name] = Place(entries[index])
                changed.append(name)
            }
            guard !changed.isEmpty else { return changed }
            entries.sort { $0.precedes($1) }
            asyncCount = entries.count { $0.isAsync }
            return changed
        }

        /// The first index whose entry does not come before `place` in the order (level,
        /// then priority, higher first, then sequence): a binary search that reads the
        /// three fields in place.
        private func lowerBound(of place: Place) -> Int {
            let (level, priority, sequence) = (place.level, place.priority, place.sequence)
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
        /// place now (a reload may have moved it since `entry` was taken).
        func position(of entry: ModuleEntry) -> Int? {
            guard let place = places[entry.name], place.sequence == entry.sequence else { return nil }
            let index = lowerBound(of: place)
            return index < entries.count && entries[index].sequence == place.sequence ? index : nil
        }

        /// The smallest budget of any module, the default included, in nanoseconds.
        var minimumBudget: UInt64 {
            entries.withUnsafeBufferPointer { buffer in
                buffer.indices.reduce(defaultBudget.nanosecondsClamped) { smallest, index in
                    buffer[index].descriptor.budget.map { min(smallest, $0.nanosecondsClamped) } ?? smallest
                }
            }
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
}
