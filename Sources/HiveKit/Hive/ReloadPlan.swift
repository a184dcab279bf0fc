/// What a reload will do, worked out before anything changes: which configured modules
/// stay (with their new descriptors), go, change type, or come, the new ones built.
struct ReloadPlan {
    /// A module that stays, and the descriptor it will take.
    struct Kept {
        var module: HostedModule
        var descriptor: ModuleDescriptor

        /// Whether its settings change: it is asked to validate them.
        var settingsChange: Bool { module.settings != descriptor.settings }
    }

    var kept: [Kept] = []
    /// Configured modules the new list no longer holds, or holds disabled.
    var removed: [HostedModule] = []
    /// Configured modules whose type changes: removed before their replacements (in
    /// ``added``) are set up.
    var replaced: [HostedModule] = []
    /// New modules, replacements included, built, in the order they will take.
    var added: [(module: any Module, descriptor: ModuleDescriptor)] = []

    /// Plans the move from `current` to `descriptors`, building every new module through
    /// `catalog`.
    ///
    /// - Throws: ``HiveError`` for a name declared twice or taken by a module registered in
    ///   code (which a reload never replaces), a missing or unknown type, or a factory that
    ///   throws.
    init(_ descriptors: [ModuleDescriptor], current: [HostedModule], catalog: ModuleCatalog) throws(HiveError) {
        var byName: [String: (module: HostedModule, type: String?)] = [:]
        for module in current { byName[module.name] = (module, module.type) }
        var seen = Set<String>()
        for descriptor in descriptors {
            guard seen.insert(descriptor.name).inserted else {
                throw HiveError(
                    .duplicateModule, module: descriptor.name, location: descriptor.location,
                    "duplicate module name \(quoted: descriptor.name)")
            }
            if let running = byName[descriptor.name], running.type == nil {
                throw HiveError(
                    .duplicateModule, module: descriptor.name, location: descriptor.location,
                    "a module named \(quoted: descriptor.name) is already registered in code")
            }
        }
        var wanted = Set<String>()
        for descriptor in descriptors where descriptor.isEnabled {
            wanted.insert(descriptor.name)
            if let running = byName[descriptor.name], running.type == descriptor.type {
                try catalog.checkSettings(descriptor)
                kept.append(Kept(module: running.module, descriptor: catalog.declared(descriptor)))
                continue
            }
            if let running = byName[descriptor.name] { replaced.append(running.module) }
            added.append((try catalog.instantiate(descriptor), catalog.declared(descriptor)))
        }
        removed = current.filter { byName[$0.name]?.type != nil && !wanted.contains($0.name) }
        added.sort { lhs, rhs in
            let (l, r) = (lhs.descriptor, rhs.descriptor)
            return l.level != r.level ? l.level < r.level : l.priority > r.priority
        }
    }
}
