import Synchronization

/// The hive's service registrations (BeeHive's `BHServiceManager`); reached through the
/// scoped ``ServiceRegistry`` views of ``Hive/services`` and ``ModuleContext/services``.
///
/// Removing, replacing and releasing registrations take the ``CreationLock``, so they
/// wait for a singleton being created and then release it too. After ``close()`` the
/// store is empty and refuses new registrations.
final class ServiceStore: Sendable {
    /// Every registration, plus the unnamed ones again by type alone, whose key hashes
    /// faster: the common resolve.
    private struct Slots {
        private(set) var all: [ServiceKey: ServiceSlot] = [:]
        private(set) var unnamed: [ObjectIdentifier: ServiceSlot] = [:]
        /// Set by ``ServiceStore/close()``, for good.
        var isClosed = false

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

        /// Empties the table, returning what it held.
        mutating func removeAll() -> [ServiceSlot] {
            defer {
                all = [:]
                unnamed = [:]
            }
            return Array(all.values)
        }
    }

    private let slots = Mutex(Slots())
    /// Serialises singleton creation with removals; numbers creations.
    let creation = CreationLock()

    /// The registration under `key`: one lock, one dictionary lookup.
    @inline(__always)
    func slot(for key: ServiceKey) -> ServiceSlot? {
        slots.withLock { $0[key] }
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { slots.withLock { $0.isClosed } }

    /// Adds `slot`; an existing registration under the same key is an error unless
    /// `replacing` is set, in which case it is released and replaced (after its
    /// singleton, if being created, is).
    ///
    /// - Throws: ``HiveError`` `.duplicateRegistration`, or `.refusedEvent` once the
    ///   store is closed.
    func insert(_ slot: ServiceSlot, replacing: Bool) throws(HiveError) {
        guard replacing else {
            _ = try put(slot, replacing: false)
            return
        }
        let replaced = try creation.withLock { () throws(HiveError) -> ServiceSlot? in
            let replaced = try put(slot, replacing: true)
            replaced?.retire(.removed)
            return replaced
        }
        replaced?.releaseInstance()
    }

    private func put(_ slot: ServiceSlot, replacing: Bool) throws(HiveError) -> ServiceSlot? {
        try slots.withLock { slots throws(HiveError) -> ServiceSlot? in
            if slots.isClosed { throw Self.stopped(slot.key, "register", module: slot.owner) }
            if let existing = slots[slot.key], !replacing {
                let by = existing.owner.map { "module '\($0)'" } ?? "the hive"
                throw HiveError(
                    .duplicateRegistration, module: slot.owner,
                    "service '\(slot.key)' is already registered by \(by); pass replacing: true to replace it")
            }
            return slots.updateValue(slot, forKey: slot.key)
        }
    }

    /// Removes one registration, releasing its singleton; `true` if there was one.
    func remove(_ key: ServiceKey) -> Bool {
        let removed = creation.withLock { () -> ServiceSlot? in
            let removed = slots.withLock { $0.removeValue(forKey: key) }
            removed?.retire(.removed)
            return removed
        }
        guard let removed else { return false }
        removed.releaseInstance()
        return true
    }

    /// Removes every registration `owner` made, releasing its singletons newest first.
    func removeAll(ownedBy owner: String) {
        let removed = creation.withLock { () -> [ServiceSlot] in
            let mine = slots.withLock { slots -> [ServiceSlot] in
                let mine = slots.values.filter { $0.owner == owner }
                for slot in mine { slots.removeValue(forKey: slot.key) }
                return mine
            }
            for slot in mine { slot.retire(.removed) }
            return mine
        }
        Self.release(consume removed)
    }

    /// Removes every registration and releases every created singleton, newest first, for
    /// good: from then on a resolve or a registration throws `.refusedEvent` and
    /// `isAvailable` is `false`. Waits for a singleton being created, and releases it too.
    func close() {
        let closed = creation.withLock { () -> [ServiceSlot] in
            let all = slots.withLock { slots -> [ServiceSlot] in
                slots.isClosed = true
                return slots.removeAll()
            }
            for slot in all { slot.retire(.closed) }
            return all
        }
        Self.release(consume closed)
    }

    /// The registered keys, for listings.
    var keys: [ServiceKey] { slots.withLock { Array($0.keys) } }

    /// Every registration, in no particular order.
    var registrations: [ServiceSlot] { slots.withLock { Array($0.values) } }

    /// The error for using the store after ``close()``: `verb` is `resolve` or `register`.
    static func stopped(_ key: ServiceKey, _ verb: String, module: String?) -> HiveError {
        HiveError(.refusedEvent, module: module, "the hive has stopped: cannot \(verb) service '\(key)'")
    }

    /// Releases the created singletons among `slots`, newest first, dropping each one
    /// right after its release so `deinit`s run in the same order when nobody else
    /// holds the instance.
    private static func release(_ slots: consuming [ServiceSlot]) {
        var created = (consume slots).compactMap { slot in slot.creationOrder.map { (slot, $0) } }
        created.sort { $0.1 < $1.1 }
        while let (slot, _) = created.popLast() { slot.releaseInstance() }
    }
}
