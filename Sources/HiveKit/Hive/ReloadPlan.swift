/// What a reload will do, worked out before anything changes: which configured modules
/// stay (with their new descriptors), go, change type, or come, the new ones built.
struct ReloadPlan {
    /// A module that stays, and the descriptor it will take.
    struct Kept {
        var entry: ModuleEntry
        var descriptor: ModuleDescriptor

        /// Whether its settings change: it is asked to validate them.
        var settingsChange: Bool { entry.descriptor.settings != descriptor.settings }
    }

    /// A module to add, built, with its catalog type and declaration.
    struct Added {
        var registration: ModuleRegistration
        var type: String
        var location: SourceLocation?
    }

    var kept: [Kept] = []
    /// Configured modules the new list no longer holds, or holds disabled.
    var removed: [ModuleEntry] = []
    /// Configured modules whose type changes: removed before their replacements (in
    /// ``added``) are set up.
    var replaced: [ModuleEntry] = []
    /// New modules, replacements included, in the order they will take.
    var added: [Added] = []

    /// Plans the move from `current` to `specs`, building every new module through `catalog`.
    ///
    /// - Throws: ``HiveError`` for a name declared twice or taken by a module registered in
    ///   code (which a reload never replaces), an unknown type, or a factory that throws.
    init(_ specs: [ModuleSpec], current: [ModuleEntry], catalog: ModuleCatalog) throws(HiveError) {
        var byName: [String: ModuleEntry] = [:]
        for entry in current { byName[entry.name] = entry }
        var seen = Set<String>()
        for spec in specs {
            guard seen.insert(spec.name).inserted else {
                throw HiveError(
                    .duplicateModule, module: spec.name, location: spec.location,
                    "duplicate module name \(quoted: spec.name)")
            }
            if let entry = byName[spec.name], entry.type == nil {
                throw HiveError(
                    .duplicateModule, module: spec.name, location: spec.location,
                    "a module named \(quoted: spec.name) is already registered in code")
            }
        }
        var wanted = Set<String>()
        for spec in specs where spec.isEnabled {
            wanted.insert(spec.name)
            if let entry = byName[spec.name], entry.type == spec.type {
                kept.append(Kept(entry: entry, descriptor: catalog.descriptor(for: spec)))
                continue
            }
            if let entry = byName[spec.name] { replaced.append(entry) }
            added.append(Added(registration: try catalog.instantiate(spec), type: spec.type, location: spec.location))
        }
        removed = current.filter { $0.type != nil && !wanted.contains($0.name) }
        added.sort { lhs, rhs in
            let (l, r) = (lhs.registration.descriptor, rhs.registration.descriptor)
            return l.level != r.level ? l.level < r.level : l.priority > r.priority
        }
    }
}
