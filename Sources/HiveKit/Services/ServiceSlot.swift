import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A shared counter that orders singleton creations across a hive.
final class CreationCounter: Sendable {
    private let next = Atomic<Int>(1)
    func take() -> Int { next.wrappingAdd(1, ordering: .relaxed).oldValue }
}

/// One registration: its factory, lifetime and, for a singleton, the created instance.
///
/// A created singleton is read with one atomic load and no lock. Creation takes a
/// per-slot lock so the factory runs exactly once however many tasks resolve at once; a
/// factory that resolves its own service (on the same thread) gets an error instead of
/// a deadlock. The slot is not generic (see ``InstanceBox``); the store guarantees that
/// the `Service` a caller resolves is the type the slot was registered with.
final class ServiceSlot: Sendable {
    /// Builds a boxed instance with the given creation order.
    typealias Maker = @Sendable (Int) throws -> InstanceBox

    let key: ServiceKey
    /// The module that registered it; `nil` for the hive (code or configuration).
    let owner: String?
    let lifetime: ServiceLifetime
    private let maker: Maker
    private let counter: CreationCounter
    private let instance = AtomicLazyReference<InstanceBox>()
    private let creating = Mutex<Void>(())
    /// The thread running the factory, 0 when none: detects a factory resolving itself.
    private let creator = Atomic<UInt>(0)

    init(key: ServiceKey, owner: String?, lifetime: ServiceLifetime, counter: CreationCounter, maker: @escaping Maker) {
        self.key = key
        self.owner = owner
        self.lifetime = lifetime
        self.counter = counter
        self.maker = maker
    }

    /// A slot whose factory makes `Service` values.
    static func of<Service: Sendable>(
        _ type: Service.Type, key: ServiceKey, owner: String?, lifetime: ServiceLifetime,
        counter: CreationCounter, factory: @escaping @Sendable () throws -> Service
    ) -> ServiceSlot {
        ServiceSlot(key: key, owner: owner, lifetime: lifetime, counter: counter) { order in
            InstanceBox(try factory(), order: order)
        }
    }

    /// The singleton (created on first use) or a new instance, as `Service`, which must
    /// be the registered type.
    @inline(__always)
    func resolve<Service>(as type: Service.Type) throws(HiveError) -> Service {
        if let box = instance.load() { return box.value(as: type) }
        if lifetime == .transient { return try make(order: 0).value(as: type) }
        return try create().value(as: type)
    }

    /// The slow path: creates the singleton under the slot's lock, once.
    private func create() throws(HiveError) -> InstanceBox {
        let thread = Self.currentThread()
        if creator.load(ordering: .acquiring) == thread {
            throw HiveError(
                .circularDependency, module: owner,
                "the factory of service '\(key)' resolves '\(key)' itself")
        }
        return try creating.withLock { _ throws(HiveError) -> InstanceBox in
            if let box = instance.load() { return box }
            creator.store(thread, ordering: .releasing)
            defer { creator.store(0, ordering: .releasing) }
            return instance.storeIfNil(try make(order: counter.take()))
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

    /// When its singleton was created (a hive-wide sequence number), if it was.
    var creationOrder: Int? { instance.load()?.order }

    /// Calls ``ServiceReleasing/release()`` on the created singleton, if it conforms.
    func releaseInstance() {
        instance.load()?.releasing?.release()
    }

    /// The same registration with no instance created yet.
    func renewed() -> ServiceSlot {
        ServiceSlot(key: key, owner: owner, lifetime: lifetime, counter: counter, maker: maker)
    }

    private static func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
