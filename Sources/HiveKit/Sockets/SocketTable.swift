import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hive's side of ``ModuleSockets``: the descriptors passed at start, who claimed which,
/// and what each module keeps in the descriptor store.
///
/// Passed descriptors may be claimed until start-up ends; then the unclaimed ones are
/// closed (and, if they were a module's stored descriptors, removed from the store).
final class SocketTable: Sendable {
    struct Passed {
        let descriptor: PassedDescriptor
        /// The module that claimed it.
        var claimedBy: String?
        /// `MODULE/NAME` parsed, when the name has that form: a stored descriptor back.
        let stored: (module: String, name: String)?
    }

    struct State {
        var passed: [Passed]
        /// Passed descriptors may still be claimed (until the end of start-up).
        var isOpen = true
        /// Descriptors in the store by store name: owning module and how many.
        var stored: [String: (module: String, count: Int)] = [:]
        /// The store's capacity once known.
        var capacity: Int?
    }

    let store: (any DescriptorStore)?
    private let logger: Logger
    private let state: Mutex<State>

    init(passed: [PassedDescriptor], store: (any DescriptorStore)?, logger: Logger) {
        self.store = store
        self.logger = logger
        var state = State(passed: passed.map { Passed(descriptor: $0, stored: Self.owner(ofStoreName: $0.name)) })
        for entry in state.passed {
            guard let stored = entry.stored else { continue }
            state.stored[entry.descriptor.name, default: (stored.module, 0)].count += 1
        }
        self.state = Mutex(state)
    }

    // MARK: Passed descriptors

    /// The names passed and not yet claimed, in order, each once.
    func unclaimedNames() -> [String] {
        state.withLock { state in
            guard state.isOpen else { return [] }
            var names: [String] = []
            for entry in state.passed where entry.claimedBy == nil && !names.contains(entry.descriptor.name) {
                names.append(entry.descriptor.name)
            }
            return names
        }
    }

    /// Claims for `module` every unclaimed descriptor passed under `name`.
    func claim(_ name: String, for module: String, all: Bool) throws(HiveError) -> [Int32] {
        try state.withLock { state throws(HiveError) in
            guard state.isOpen else {
                throw HiveError(
                    .unavailable, module: module,
                    "cannot take socket '\(name)': passed sockets can be taken only in setup or init; "
                        + "the unclaimed ones were closed when start-up ended")
            }
            var claimed: [Int32] = []
            var holder: String?
            for index in state.passed.indices where state.passed[index].descriptor.name == name {
                if let owner = state.passed[index].claimedBy {
                    holder = owner
                    continue
                }
                state.passed[index].claimedBy = module
                claimed.append(state.passed[index].descriptor.descriptor)
                if !all { break }
            }
            guard claimed.isEmpty else { return claimed }
            if let holder {
                throw HiveError(
                    .unavailable, module: module, "socket '\(name)' was already taken by module '\(holder)'")
            }
            let names = Set(state.passed.map(\.descriptor.name)).sorted()
            let passed = names.isEmpty ? "none was passed" : "passed: " + names.joined(separator: ", ")
            throw HiveError(.unavailable, module: module, "no socket named '\(name)' was passed (\(passed))")
        }
    }

    /// The names of `module`'s own descriptors that came back from the store, unclaimed.
    func restoredNames(of module: String) -> [String] {
        state.withLock { state in
            guard state.isOpen else { return [] }
            var names: [String] = []
            for entry in state.passed where entry.claimedBy == nil {
                if let stored = entry.stored, stored.module == module, !names.contains(stored.name) {
                    names.append(stored.name)
                }
            }
            return names
        }
    }

    /// Claims one of `module`'s own descriptors that came back under `name`.
    func claimRestored(_ name: String, for module: String) -> Int32? {
        state.withLock { state in
            guard state.isOpen else { return nil }
            guard let index = state.passed.firstIndex(where: {
                $0.claimedBy == nil && $0.stored?.module == module && $0.stored?.name == name
            }) else { return nil }
            state.passed[index].claimedBy = module
            return state.passed[index].descriptor.descriptor
        }
    }

    /// Ends start-up: closes every passed descriptor nobody claimed, logging each by name.
    ///
    /// After a successful start, a module's stored descriptors that nobody took back are
    /// removed from the store too (the module is gone, or did not want them), unless
    /// another descriptor under the same name was taken. After a failed start they stay,
    /// for a start that succeeds.
    func closeUnclaimed(startSucceeded: Bool) {
        let (unclaimed, removed) = state.withLock { state -> ([Passed], Set<String>) in
            guard state.isOpen else { return ([], []) }
            state.isOpen = false
            let unclaimed = state.passed.filter { $0.claimedBy == nil }
            let taken = Set(state.passed.filter { $0.claimedBy != nil }.map(\.descriptor.name))
            state.passed.removeAll()
            var removed = Set<String>()
            if startSucceeded {
                for entry in unclaimed where entry.stored != nil && !taken.contains(entry.descriptor.name) {
                    if state.stored.removeValue(forKey: entry.descriptor.name) != nil {
                        removed.insert(entry.descriptor.name)
                    }
                }
            }
            return (unclaimed, removed)
        }
        for entry in unclaimed {
            close(entry.descriptor.descriptor)
            if let stored = entry.stored {
                let fate = removed.contains(entry.descriptor.name) ? "closed and removed from the store" : "closed"
                logger.notice(
                    "stored descriptor \(entry.descriptor) \(fate): module '\(stored.module)' did not take it back",
                    metadata: ["module": "\(stored.module)"])
            } else {
                logger.warning("closed socket \(entry.descriptor): no module took it")
            }
        }
        for name in removed.sorted() { store?.remove(name: name) }
    }

    // MARK: The descriptor store

    /// The store's capacity, asking it the first time; errors begin with what `module`
    /// was `doing`, if given.
    func capacity(for module: String, doing: String?) async throws(HiveError) -> Int {
        if let known = state.withLock({ $0.capacity }) { return known }
        let prefix = doing.map { "\($0): " } ?? ""
        guard let store else {
            throw HiveError(.unavailable, module: module, "\(prefix)this hive has no descriptor store")
        }
        do {
            let capacity = try await store.capacity()
            state.withLock { $0.capacity = capacity }
            return capacity
        } catch {
            throw HiveError(
                .unavailable, module: module, "\(prefix)the descriptor store is unavailable: \(error)",
                underlying: error)
        }
    }

    /// Puts a duplicate of `descriptor` in the store under `module`'s `name`.
    func store(_ descriptor: Int32, as name: String, for module: String) async throws(HiveError) {
        guard let storeName = Self.storeName(module: module, name: name) else {
            throw HiveError(
                .invalidParameter, module: module,
                "cannot store '\(name)': a name must not be empty, and module and name must fit in "
                    + "\(Self.maximumStoreNameLength) bytes once escaped")
        }
        let capacity = try await self.capacity(for: module, doing: "cannot store '\(name)'")
        guard let store else { return }
        try state.withLock { state throws(HiveError) in
            let count = state.stored.values.reduce(0) { $0 + $1.count }
            guard count < capacity else {
                throw HiveError(
                    .unavailable, module: module,
                    "cannot store '\(name)': the descriptor store is full (\(count) of \(capacity))")
            }
            state.stored[storeName, default: (module, 0)].count += 1
        }
        do {
            try store.store(descriptor, name: storeName)
        } catch {
            state.withLock { state in
                if let entry = state.stored[storeName] {
                    state.stored[storeName] = entry.count > 1 ? (entry.module, entry.count - 1) : nil
                }
            }
            throw HiveError(.unavailable, module: module, "cannot store '\(name)': \(error)", underlying: error)
        }
    }

    /// Removes every descriptor `module` stored under `name`; nothing if there is none.
    func removeStored(_ name: String, for module: String) {
        guard let storeName = Self.storeName(module: module, name: name) else { return }
        let removed = state.withLock { $0.stored.removeValue(forKey: storeName) != nil }
        if removed { store?.remove(name: storeName) }
    }

    /// The names `module` has in the store now, sorted.
    func storedNames(of module: String) -> [String] {
        state.withLock { state in
            state.stored.compactMap { key, value in
                value.module == module ? Self.owner(ofStoreName: key)?.name : nil
            }.sorted()
        }
    }

    /// Removes everything the `modules` stored (they left a running hive), in one pass over
    /// the table; logs one line per module that had stored anything, in the given order.
    func forget(ownedBy modules: [String]) {
        let owners = Set(modules)
        let removed = state.withLock { state in
            let names = state.stored.filter { owners.contains($0.value.module) }
            for name in names.keys { state.stored[name] = nil }
            return Dictionary(grouping: names, by: \.value.module).mapValues { $0.map(\.key).sorted() }
        }
        for module in modules {
            guard let names = removed[module] else { continue }
            for name in names { store?.remove(name: name) }
            logger.info(
                "removed \(names.count) descriptor name\(names.count == 1 ? "" : "s") from the descriptor store",
                metadata: ["module": "\(module)"])
        }
    }
}
