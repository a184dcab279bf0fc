import Synchronization

/// The hive's service registrations (BeeHive's `BHServiceManager`); reached through the
/// scoped ``ServiceRegistry`` views of ``Hive/services`` and ``ModuleContext/services``.
///
/// Removing, replacing and releasing registrations never wait for a factory (they run on
/// the event path: `unregister`, a reload, a stop): a singleton still being created when
/// its registration goes is released by the resolve that created it, which then fails.
/// After ``close()`` the store is empty and refuses new registrations.
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
    /// Serialises singleton creations; numbers them.
    let creation = CreationLock()

    /// The registration under `key`: one lock, one dictionary lookup.
    @inline(__always)
    func slot(for key: ServiceKey) -> ServiceSlot? {
        slots.withLock { $0[key] }
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { slots.withLock { $0.isClosed } }

    /// Adds `slot`; an existing registration under the same key is an error unless
    /// `replacing` is set, in which case it is replaced and its singleton released.
    ///
    /// - Throws: ``HiveError`` `.duplicateRegistration`, or `.refusedEvent` once the
    ///   store is closed.
    func insert(_ slot: ServiceSlot, replacing: Bool) throws(HiveError) {
        guard replacing else {
            _ = try put(slot, replacing: false)
            return
        }
        let replaced = try put(slot, replacing: true)
        replaced?.retire(.removed)?.releasing?.release()
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
        guard let removed = slots.withLock({ $0.removeValue(forKey: key) }) else { return false }
        removed.retire(.removed)?.releasing?.release()
        return true
    }

    /// Releases the singleton created for `key`, keeping the registration: the next
    /// resolve creates a new one. `false` when there is no such registration or no
    /// instance yet.
    func releaseInstance(_ key: ServiceKey) -> Bool {
        let released = slots.withLock { slots -> ServiceSlot? in
            guard let slot = slots[key], slot.hasInstance else { return nil }
            slots[key] = slot.emptied()
            return slot
        }
        guard let released else { return false }
        released.retire(.removed)?.releasing?.release()
        return true
    }

    /// Removes every registration the `owners` made, releasing their singletons newest
    /// first.
    func removeAll(ownedBy owners: Set<String>) {
        let mine = slots.withLock { slots -> [ServiceSlot] in
            let mine = slots.values.filter { $0.owner.map(owners.contains) ?? false }
            for slot in mine { slots.removeValue(forKey: slot.key) }
            return mine
        }
        Self.release(mine.compactMap { $0.retire(.removed) })
    }

    /// Removes every registration and releases every created singleton, newest first, for
    /// good: from then on a resolve or a registration throws `.refusedEvent` and
    /// `isAvailable` is `false`. A singleton still being created is released by its creator.
    func close() {
        let all = slots.withLock { slots -> [ServiceSlot] in
            slots.isClosed = true
            return slots.removeAll()
        }
        Self.release(all.compactMap { $0.retire(.closed) })
    }

    /// The registered keys, for listings.
    var keys: [ServiceKey] { slots.withLock { Array($0.keys) } }

    /// Every registration, in no particular order.
    var registrations: [ServiceSlot] { slots.withLock { Array($0.values) } }

    /// The error for using the store after ``close()``: `verb` is `resolve` or `register`.
    static func stopped(_ key: ServiceKey, _ verb: String, module: String?) -> HiveError {
        HiveError(.refusedEvent, module: module, "the hive has stopped: cannot \(verb) service '\(key)'")
    }

    /// Releases the singletons `created`, newest first, dropping each one right after its
    /// release so `deinit`s run in the same order when nobody else holds the instance.
    private static func release(_ created: consuming [InstanceBox]) {
        var created = consume created
        created.sort { $0.order < $1.order }
        while let box = created.popLast() { box.releasing?.release() }
    }
}
