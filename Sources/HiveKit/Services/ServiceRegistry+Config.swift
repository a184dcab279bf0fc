extension ServiceRegistry {
    /// Registers a service a configuration file declares (a `services:` entry), building
    /// it through `catalog`.
    ///
    /// - Throws: ``HiveError`` carrying the spec's location: an unknown service or
    ///   implementation (`.notRegistered`), an implementation that does not conform
    ///   (`.typeMismatch`), a service already registered (`.duplicateRegistration`), or
    ///   `.refusedEvent` once the hive has stopped.
    public func register(_ spec: ServiceSpec, catalog: ServiceCatalog, replacing: Bool = false) throws(HiveError) {
        let slot = try catalog.slot(for: spec, owner: owner, lock: store.creation)
        do throws(HiveError) {
            try store.insert(slot, replacing: replacing)
        } catch {
            throw HiveError(error.code, module: error.module, location: spec.location, error.message)
        }
    }

    /// Registers every entry of `specs` after checking them all; on an error nothing
    /// from `specs` stays registered.
    ///
    /// - Throws: the first ``HiveError`` ``register(_:catalog:replacing:)`` would throw,
    ///   or `.duplicateRegistration` for two entries with the same service and name.
    public func register(_ specs: [ServiceSpec], catalog: ServiceCatalog) throws(HiveError) {
        var slots: [(ServiceSpec, ServiceSlot)] = []
        for spec in specs { slots.append((spec, try catalog.slot(for: spec, owner: owner, lock: store.creation))) }
        var inserted: [ServiceKey] = []
        for (spec, slot) in slots {
            do {
                try store.insert(slot, replacing: false)
                inserted.append(slot.key)
            } catch {
                for key in inserted { _ = store.remove(key) }
                throw HiveError(error.code, module: error.module, location: spec.location, error.message)
            }
        }
    }
}
