import Synchronization

/// One registration: its factory, lifetime and, for a singleton, the created instance.
///
/// A created singleton is read with one atomic load and no lock. A first creation runs
/// under the store's ``CreationLock``, so the factory runs exactly once however many
/// tasks resolve at once, and removals wait for it. A factory that resolves its own
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
            // Unregistered by the factory itself (or one it called): nobody else will
            // release it.
            if let error = removalError() {
                box.releasing?.release()
                throw error
            }
            return instance.storeIfNil(box)
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

    /// Marks the slot as gone from its store; call under the creation lock, so that no
    /// singleton can be created for it afterwards, except by a factory already running
    /// on this thread (which then releases it itself).
    func retire(_ removal: Removal) {
        state.withLock { $0.removal = removal }
    }

    /// The registration as listings show it.
    var definition: ServiceDefinition {
        ServiceDefinition(
            service: key.typeName, name: key.name, lifetime: lifetime, implementation: implementation, owner: owner)
    }

    /// When its singleton was created (a hive-wide sequence number), if it was.
    var creationOrder: Int? { instance.load()?.order }

    /// Calls ``ServiceReleasing/release()`` on the created singleton, if it conforms.
    func releaseInstance() {
        instance.load()?.releasing?.release()
    }
}
