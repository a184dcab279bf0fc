/// The typed service registry (BeeHive's `BHServiceManager`, Swinject's container): a
/// service protocol maps to a factory, optionally under a variant name.
///
/// ```swift
/// protocol Greeter: Sendable { func greet(_ name: String) -> String }
/// struct English: Greeter { func greet(_ name: String) -> String { "Hello, \(name)" } }
///
/// try context.services.register(Greeter.self) { English() }      // in a module's setup
/// let greeter = try context.services.resolve(Greeter.self)       // any Greeter, no cast
/// ```
///
/// Reached through ``ModuleContext/services`` (registrations belong to that module and
/// disappear when it is unregistered) or ``Hive/services`` (registrations belong to the
/// hive). Every method is safe from any task. First creations of singletons in one hive
/// run one at a time, under one creation lock that the creating thread may take again:
/// concurrent first resolves wait for the one instance, and a factory may resolve other
/// services. A factory that resolves, directly or through other factories, the service
/// it is creating gets `.circularDependency`, whichever threads the resolves start on;
/// two factories can never wait for each other. A factory must not block on another
/// thread that resolves a singleton not yet created: that thread waits for the lock.
/// After the hive's final teardown nothing is registered any more, and resolves and
/// registrations are refused with `.refusedEvent`.
/// Service types must be `Sendable`: declare service protocols as `protocol P: Sendable`.
public struct ServiceRegistry: Sendable {
    let store: ServiceStore
    /// The module registrations are made for; `nil` for the hive itself.
    let owner: String?

    init(store: ServiceStore, owner: String?) {
        self.store = store
        self.owner = owner
    }

    /// Registers `factory` as the implementation of `type` (BeeHive's
    /// `registerService:implClass:`).
    ///
    /// A singleton's factory runs at the first resolve, exactly once; a transient one at
    /// every resolve. Factories run on the resolving task and may resolve other services.
    /// The registration is stored under the static type `Service`, never the dynamic type
    /// a metatype variable holds.
    ///
    /// - Parameters:
    ///   - type: the service type, usually a protocol (`Clock.self`).
    ///   - name: a variant name: a registration of its own, with its own factory; `nil`
    ///     for the default registration. (BeeHive's `withServiceName:` is not that: it
    ///     names a cached instance of the protocol's one implementation.)
    ///   - lifetime: ``ServiceLifetime/singleton`` (the default) or `.transient`.
    ///   - replacing: replace an existing registration instead of failing.
    ///   - factory: makes the implementation, typed as the service.
    /// - Throws: ``HiveError`` `.duplicateRegistration` when `type` (with `name`) is
    ///   already registered and `replacing` is `false`; `.refusedEvent` once the hive has
    ///   stopped. Replacing waits for the old singleton if it is being created.
    public func register<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: ServiceLifetime = .singleton,
        replacing: Bool = false,
        factory: @escaping @Sendable () throws -> Service
    ) throws(HiveError) {
        let slot = ServiceSlot.of(
            Service.self, key: ServiceKey(Service.self, name: name), owner: owner, lifetime: lifetime,
            lock: store.creation, factory: factory)
        try store.insert(slot, replacing: replacing)
    }

    /// The implementation of `type` (BeeHive's `createService:`), as `type` itself.
    ///
    /// A registered singleton costs one dictionary lookup under a short lock and one
    /// atomic load; the first resolve creates it, waiting while another singleton of the
    /// hive is being created on another thread.
    ///
    /// - Parameters:
    ///   - type: the service type, as it was registered (`Clock.self`).
    ///   - name: the variant's name; `nil` for the default registration.
    ///   - cached: `false` makes a new instance for this call even for a singleton, and
    ///     keeps nothing (BeeHive's `createService:withServiceName:shouldCache:NO`); the
    ///     singleton, if created, stays as it is.
    /// - Throws: ``HiveError`` `.notRegistered` when nothing is registered under `type`
    ///   and `name`, or when the registration was removed while this resolve waited to
    ///   create its singleton; `.circularDependency` when the service is resolved again,
    ///   on the same thread, while its own factory runs; `.handlerFailed` when the
    ///   factory throws (the error is `underlying`); `.refusedEvent` after the hive's
    ///   final teardown (`stop`, or the rollback of a failed `start`).
    @inline(__always)
    public func resolve<Service: Sendable>(
        _ type: Service.Type = Service.self, name: String? = nil, cached: Bool = true
    ) throws(HiveError) -> Service {
        let key = ServiceKey(type: ObjectIdentifier(Service.self), typeName: "", name: name)
        guard let slot = store.slot(for: key) else { throw notRegistered(Service.self, name: name) }
        // Safe: a slot stored under `ObjectIdentifier(Service.self)` always makes `Service`
        // values: `register` above and `ServiceCatalog.register` (which build the key from
        // the static generic `Service`, never from the metatype argument, which may hold
        // a subclass) are the only places that make slots.
        return cached ? try slot.resolve(as: Service.self) : try slot.resolveUncached(as: Service.self)
    }

    /// The singleton of `type` (with `name`) if it was created, without creating it
    /// (BeeHive's `getServiceInstanceFromServiceName:`); `nil` for a transient service,
    /// a singleton not created yet, or nothing registered.
    public func cachedInstance<Service: Sendable>(_ type: Service.Type, name: String? = nil) -> Service? {
        store.slot(for: ServiceKey(type: ObjectIdentifier(Service.self), typeName: "", name: name))?.cached(as: Service.self)
    }

    /// Releases the singleton of `type` (with `name`) and keeps the registration
    /// (BeeHive's `removeServiceWithServiceName:`): the instance is released
    /// (``ServiceReleasing/release()``) or dropped, and the next resolve creates a new one.
    ///
    /// - Returns: `false` when nothing is registered or no instance was created.
    @discardableResult
    public func releaseInstance<Service>(_ type: Service.Type, name: String? = nil) -> Bool {
        store.releaseInstance(ServiceKey(type: ObjectIdentifier(Service.self), typeName: "", name: name))
    }

    /// Whether `type` (with `name`) is registered, without creating anything; `false`
    /// after the hive's final teardown.
    public func isAvailable<Service>(_ type: Service.Type, name: String? = nil) -> Bool {
        store.slot(for: ServiceKey(type: ObjectIdentifier(Service.self), typeName: "", name: name)) != nil
    }

    /// Removes the registration of `type` (with `name`), releasing its singleton.
    ///
    /// Waits while a singleton is being created on another thread, so that one too is
    /// released if it is this service's. Called from this service's own factory (or one
    /// it calls), the instance is released as soon as it is made and that resolve fails.
    /// - Returns: `false` when there was none.
    @discardableResult
    public func unregister<Service>(_ type: Service.Type, name: String? = nil) -> Bool {
        store.remove(ServiceKey(type: ObjectIdentifier(Service.self), typeName: "", name: name))
    }

    /// Every registration as `Type` or `Type named 'x'`, sorted.
    package var registeredServices: [String] { store.keys.map(\.description).sorted() }

    /// Every registration with its lifetime, implementation and owner, by service name
    /// then variant name (the default registration first).
    public var definitions: [ServiceDefinition] {
        store.registrations.map(\.definition).sorted { ($0.service, $0.name ?? "") < ($1.service, $1.name ?? "") }
    }

    private func notRegistered<Service>(_ type: Service.Type, name: String?) -> HiveError {
        let key = ServiceKey(Service.self, name: name)
        if store.isClosed { return ServiceStore.stopped(key, "resolve", module: owner) }
        var message = "no service '\(key)' is registered"
        if name != nil, isAvailable(Service.self) { message += " (a default registration without a name exists)" }
        return HiveError(.notRegistered, module: owner, message)
    }
}
