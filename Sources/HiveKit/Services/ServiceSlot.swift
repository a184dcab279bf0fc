import Synchronization

/// One registration: its factory, lifetime and, for a singleton, the created instance.
///
/// A created singleton is read with one atomic load and no lock. A first creation runs
/// under the store's ``CreationLock``, so the factory runs exactly once however many
/// tasks resolve at once. Removals never wait for a factory: the slot's own lock decides
/// whether the singleton was published before the removal (the remover releases it) or
/// not (the creator does, and its resolve fails). A factory that resolves its own
/// service on the same thread, directly or through other factories, gets
/// `.circularDependency` instead of a deadlock or endless recursion. The slot is not
/// generic (see ``InstanceBox``); the store guarantees that the `Service` a caller
/// resolves is the type the slot was registered with.
final class ServiceSlot: Sendable {
    /// Builds a boxed instance with the given creation order.
    typealias Maker = @Sendable (Int) throws -> InstanceBox

    /// Why a slot left its store.
    enum Removal: Sendable {
        /// Unregistered or replaced.
        case removed
        /// The store was closed: the hive has stopped.
        case closed
    }

    /// What is not the instance: the threads running the factory, and the removal.
    private struct State {
        var running: [UInt] = []
        var removal: Removal?
    }

    let key: ServiceKey
    /// The module that registered it; `nil` for the hive (code or configuration).
    let owner: String?
    let lifetime: ServiceLifetime
    /// The catalog implementation's name; `nil` for a factory registered in code.
    let implementation: String?
    private let maker: Maker
    private let lock: CreationLock
    private let instance = AtomicLazyReference<InstanceBox>()
    private let state = Mutex(State())

    init(
        key: ServiceKey, owner: String?, lifetime: ServiceLifetime, implementation: String? = nil,
        lock: CreationLock, maker: @escaping Maker
    ) {
        self.key = key
        self.owner = owner
        self.lifetime = lifetime
        self.implementation = implementation
        self.lock = lock
        self.maker = maker
    }

    /// A slot whose factory makes `Service` values.
    static func of<Service: Sendable>(
        _ type: Service.Type, key: ServiceKey, owner: String?, lifetime: ServiceLifetime, implementation: String? = nil,
        lock: CreationLock, factory: @escaping @Sendable () throws -> Service
    ) -> ServiceSlot {
        ServiceSlot(key: key, owner: owner, lifetime: lifetime, implementation: implementation, lock: lock) { order in
            InstanceBox(try factory(), order: order)
        }
    }

    /// The singleton (created on first use) or a new instance, as `Service`, which must
    /// be the registered type.
    @inline(__always)
    func resolve<Service>(as type: Service.Type) throws(HiveError) -> Service {
        if let box = instance.load() { return box.value(as: type) }
        return try create().value(as: type)
    }

    /// A new instance whatever the lifetime, kept nowhere (BeeHive's `shouldCache:NO`):
    /// the factory runs on this thread, outside the creation lock, as for a transient
    /// service.
    func resolveUncached<Service>(as type: Service.Type) throws(HiveError) -> Service {
        let thread = CreationLock.currentThread()
        try enter(thread)
        defer { leave(thread) }
        if let error = removalError() { throw error }
        return try make(order: 0).value(as: type)
    }

    /// The singleton, if it was created; `nil` otherwise (nothing is created).
    func cached<Service>(as type: Service.Type) -> Service? {
        instance.load()?.value(as: type)
    }

    /// Whether the singleton was created.
    var hasInstance: Bool { instance.load() != nil }

    /// The same registration with no instance yet: what replaces this slot when its
    /// singleton is released but the registration stays.
    func emptied() -> ServiceSlot {
        ServiceSlot(key: key, owner: owner, lifetime: lifetime, implementation: implementation, lock: lock, maker: maker)
    }

    /// The slow path: runs the factory, for a singleton under the creation lock and once.
    private func create() throws(HiveError) -> InstanceBox {
        let thread = CreationLock.currentThread()
        try enter(thread)
        defer { leave(thread) }
        if lifetime == .transient { return try make(order: 0) }
        return try lock.withLock { () throws(HiveError) -> InstanceBox in
            if let box = instance.load() { return box }
            if let error = removalError() { throw error }
            let box = try make(order: lock.takeOrder())
            guard publish(box) else {
                // Removed while the factory ran: nobody else will release it.
                box.releasing?.release()
                throw removalError() ?? ServiceStore.stopped(key, "resolve", module: owner)
            }
            return box
        }
    }

    /// Stores the created singleton unless the slot left its store meanwhile; `false`
    /// then. Under `state`'s lock, like ``retire(_:)``: of the two, whichever comes second
    /// sees what the first did.
    private func publish(_ box: InstanceBox) -> Bool {
        state.withLock { state in
            guard state.removal == nil else { return false }
            _ = instance.storeIfNil(box)
            return true
        }
    }

    /// Marks `thread` as running the factory; a thread already running it is in a cycle.
    private func enter(_ thread: UInt) throws(HiveError) {
        let cycle = state.withLock { state in
            if state.running.contains(thread) { return true }
            state.running.append(thread)
            return false
        }
        if cycle {
            throw HiveError(
                .circularDependency, module: owner,
                "service '\(key)' is resolved again while its own factory runs (a dependency cycle)")
        }
    }

    private func leave(_ thread: UInt) {
        state.withLock { state in
            if let index = state.running.firstIndex(of: thread) { state.running.remove(at: index) }
        }
    }

    private func make(order: Int) throws(HiveError) -> InstanceBox {
        do {
            return try maker(order)
        } catch let error as HiveError {
            throw error
        } catch {
            throw HiveError(
                .handlerFailed, module: owner,
                "the factory of service '\(key)' threw: \(error)", underlying: error)
        }
    }

    /// The error a resolve of a slot that left its store gets, if it did.
    private func removalError() -> HiveError? {
        switch state.withLock({ $0.removal }) {
        case nil: nil
        case .removed?:
            HiveError(
                .notRegistered, module: owner,
                "service '\(key)' was unregistered or replaced while it was being resolved")
        case .closed?: ServiceStore.stopped(key, "resolve", module: owner)
        }
    }

    /// Marks the slot as gone from its store, without waiting for a factory that runs
    /// for it: from now on no singleton is published for it.
    ///
    /// - Returns: the singleton created before, which the caller releases; `nil` when none
    ///   was (a factory still running then releases its own instance).
    func retire(_ removal: Removal) -> InstanceBox? {
        state.withLock { state in
            state.removal = removal
            return instance.load()
        }
    }

    /// The registration as listings show it.
    var definition: ServiceDefinition {
        ServiceDefinition(
            service: key.typeName, name: key.name, lifetime: lifetime, implementation: implementation, owner: owner)
    }
}
