import Synchronization

/// The hive's service registrations (BeeHive's `BHServiceManager`); reached through the
/// scoped ``ServiceRegistry`` views of ``Hive/services`` and ``ModuleContext/services``.
final class ServiceStore: Sendable {
    /// Every registration, plus the unnamed ones again by type alone, whose key hashes
    /// faster: the common resolve.
    private struct Slots {
        private(set) var all: [ServiceKey: ServiceSlot] = [:]
        private(set) var unnamed: [ObjectIdentifier: ServiceSlot] = [:]

        subscript(key: ServiceKey) -> ServiceSlot? {
            get { key.name == nil ? unnamed[key.type] : all[key] }
            set {
                all[key] = newValue
                if key.name == nil { unnamed[key.type] = newValue }
            }
        }

        var values: Dictionary<ServiceKey, ServiceSlot>.Values { all.values }
        var keys: Dictionary<ServiceKey, ServiceSlot>.Keys { all.keys }

        @discardableResult
        mutating func removeValue(forKey key: ServiceKey) -> ServiceSlot? {
            defer { self[key] = nil }
            return self[key]
        }

        mutating func updateValue(_ slot: ServiceSlot, forKey key: ServiceKey) -> ServiceSlot? {
            defer { self[key] = slot }
            return self[key]
        }
    }

    private let slots = Mutex(Slots())
    let counter = CreationCounter()

    /// The registration under `key`: one lock, one dictionary lookup.
    @inline(__always)
    func slot(for key: ServiceKey) -> ServiceSlot? {
        slots.withLock { $0[key] }
    }

    /// Adds `slot`; an existing registration under the same key is an error unless
    /// `replacing` is set, in which case it is released and replaced.
    func insert(_ slot: ServiceSlot, replacing: Bool) throws(HiveError) {
        let replaced = try slots.withLock { slots throws(HiveError) -> ServiceSlot? in
            if let existing = slots[slot.key], !replacing {
                let by = existing.owner.map { "module '\($0)'" } ?? "the hive"
                throw HiveError(
                    .duplicateRegistration, module: slot.owner,
                    "service '\(slot.key)' is already registered by \(by); pass replacing: true to replace it")
            }
            return slots.updateValue(slot, forKey: slot.key)
        }
        replaced?.releaseInstance()
    }

    /// Removes one registration; `true` if there was one.
    func remove(_ key: ServiceKey) -> Bool {
        guard let removed = slots.withLock({ $0.removeValue(forKey: key) }) else { return false }
        removed.releaseInstance()
        return true
    }

    /// Removes every registration `owner` made, releasing its singletons newest first.
    func removeAll(ownedBy owner: String) {
        let removed = slots.withLock { slots -> [ServiceSlot] in
            let mine = slots.values.filter { $0.owner == owner }
            for slot in mine { slots.removeValue(forKey: slot.key) }
            return mine
        }
        Self.release(consume removed)
    }

    /// Releases every created singleton in reverse order of creation; registrations stay,
    /// so a later resolve creates a fresh instance.
    func releaseSingletons() {
        let released = slots.withLock { slots -> [ServiceSlot] in
            let created = slots.values.filter { $0.creationOrder != nil }
            for slot in created { slots[slot.key] = slot.renewed() }
            return created
        }
        Self.release(consume released)
    }

    /// The registered keys, for listings.
    var keys: [ServiceKey] { slots.withLock { Array($0.keys) } }

    /// Releases the created singletons among `slots`, newest first, dropping each one
    /// right after its release so `deinit`s run in the same order when nobody else
    /// holds the instance.
    private static func release(_ slots: consuming [ServiceSlot]) {
        var created = (consume slots).compactMap { slot in slot.creationOrder.map { (slot, $0) } }
        created.sort { $0.1 < $1.1 }
        while let (slot, _) = created.popLast() { slot.releaseInstance() }
    }
}
