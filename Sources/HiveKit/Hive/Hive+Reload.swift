extension Hive {
    /// Applies a new, already validated list of configured modules to a running hive,
    /// as one step queued like any event.
    ///
    /// Every module to add is built through `catalog` first; if one cannot be built,
    /// nothing changes and the error is thrown. Then modules from the old configuration
    /// that are gone, disabled or of another type are torn down and unmounted (reverse
    /// order); kept modules take their new descriptors; added ones get `setup` and
    /// `init`; finally every kept module (and every module registered in code) receives
    /// `reload` with its new settings.
    ///
    /// - Throws: ``HiveError`` when the hive is not running, a name is declared twice or
    ///   taken by a module registered in code, or a module cannot be built.
    public func reload(to specs: [ModuleSpec], catalog: ModuleCatalog) async throws(HiveError) -> ReloadSummary {
        try await takingTurn("reload(to:catalog:)", event: .reload) { () throws(HiveError) in
            try await apply(specs, catalog: catalog)
        }
    }

    private func apply(_ specs: [ModuleSpec], catalog: ModuleCatalog) async throws(HiveError) -> ReloadSummary {
        let (phase, current) = state.withLock { ($0.phase, $0.entries) }
        guard phase.isLive else {
            throw HiveError(.refusedEvent, event: .reload, "refused in phase '\(phase)'")
        }
        let currentByName = Dictionary(current.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        try Self.refuseNameClashes(specs, current: currentByName)
        let wanted = specs.filter(\.isEnabled)
        let keptNames = Set(wanted.filter { currentByName[$0.name]?.type == $0.type }.map(\.name))
        let additions = try catalog.registrations(for: wanted.filter { !keptNames.contains($0.name) })
        let addedTypes = Dictionary(
            wanted.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })

        var summary = ReloadSummary()
        for entry in current.reversed() where entry.type != nil && !keptNames.contains(entry.name) {
            try? await remove(named: entry.name)
            summary.removed.append(entry.name)
        }
        summary.changed = updateDescriptors(wanted.filter { keptNames.contains($0.name) })
        let orderedAdditions = additions.sorted { lhs, rhs in
            let (l, r) = (lhs.descriptor, rhs.descriptor)
            return l.level != r.level ? l.level < r.level : l.priority > r.priority
        }
        for registration in orderedAdditions {
            do {
                try await mount(registration, type: addedTypes[registration.descriptor.name])
                summary.added.append(registration.descriptor.name)
            } catch {
                summary.failures.append(error)
            }
        }
        let addedNames = Set(summary.added)
        let (entries, asyncCount) = state.withLock { state in
            state.delivered[Int(EventKind.reload.rawValue)] += 1
            return (state.entries.filter { !addedNames.contains($0.name) }, state.asyncCount)
        }
        let observed = observers.isActive
        let begin = observed ? MonotonicClock.nanoseconds() : 0
        let report = await fanOut(.reload, to: entries, concurrently: asyncCount > 0)
        if observed { observers.eventDelivered(report, phase: phase, since: begin) }
        summary.reloaded = report.delivered
        summary.failures += report.failures
        return summary
    }

    /// Throws for a name the new list declares twice, or one taken by a module registered
    /// in code (which a reload never replaces), before anything changes.
    private static func refuseNameClashes(
        _ specs: [ModuleSpec], current: [String: ModuleEntry]
    ) throws(HiveError) {
        var seen = Set<String>()
        for spec in specs {
            guard seen.insert(spec.name).inserted else {
                throw HiveError(
                    .duplicateModule, module: spec.name, location: spec.location,
                    "duplicate module name '\(spec.name)'")
            }
            if let entry = current[spec.name], entry.type == nil {
                throw HiveError(
                    .duplicateModule, module: spec.name, location: spec.location,
                    "a module named '\(spec.name)' is already registered in code")
            }
        }
    }

    /// Gives kept modules their new descriptors and restores the order; returns the
    /// names of those that changed.
    private func updateDescriptors(_ specs: [ModuleSpec]) -> [String] {
        state.withLock { state in
            var changed: [String] = []
            for spec in specs {
                guard let index = state.index(named: spec.name) else { continue }
                var descriptor = spec.descriptor
                descriptor.settings.owner = spec.name
                if state.entries[index].descriptor != descriptor {
                    state.entries[index].descriptor = descriptor
                    changed.append(spec.name)
                }
            }
            state.entries.sort { $0.precedes($1) }
            state.asyncCount = state.entries.count { $0.descriptor.isAsync }
            return changed
        }
    }
}
