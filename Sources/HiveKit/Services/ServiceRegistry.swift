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
/// hive). Every method is safe from any task. A singleton's factory runs under that
/// registration's own creation lock (so concurrent first resolves wait for the one
/// instance) and may resolve other services; a factory that resolves itself gets
/// `.circularDependency`, but two singletons whose factories resolve each other from
/// different threads at once would deadlock, as in Swinject: keep dependencies acyclic.
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
    ///
    /// - Parameters:
    ///   - type: the service type, usually a protocol (`Clock.self`).
    ///   - name: a variant name (`withServiceName`); `nil` for the default registration.
    ///   - lifetime: ``ServiceLifetime/singleton`` (the default) or `.transient`.
    ///   - replacing: replace an existing registration instead of failing.
    /// - Throws: ``HiveError`` `.duplicateRegistration` when `type` (with `name`) is
    ///   already registered and `replacing` is `false`.
    public func register<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: ServiceLifetime = .singleton,
        replacing: Bool = false,
        factory: @escaping @Sendable () throws -> Service
    ) throws(HiveError) {
        let slot = ServiceSlot.of(
            type, key: ServiceKey(type, name: name), owner: owner, lifetime: lifetime,
            counter: store.counter, factory: factory)
        try store.insert(slot, replacing: replacing)
    }

    /// The implementation of `type` (BeeHive's `createService:`), as `type` itself.
    ///
    /// A registered singleton costs one dictionary lookup under a short lock and one
    /// atomic load; the first resolve creates it.
    ///
    /// - Throws: ``HiveError`` `.notRegistered` when nothing is registered under `type`
    ///   and `name`; `.circularDependency` when a singleton's factory resolves itself;
    ///   `.handlerFailed` when the factory throws (the error is `underlying`).
    @inline(__always)
    public func resolve<Service: Sendable>(
        _ type: Service.Type = Service.self, name: String? = nil
    ) throws(HiveError) -> Service {
        let key = ServiceKey(type: ObjectIdentifier(type), typeName: "", name: name)
        guard let slot = store.slot(for: key) else { throw notRegistered(type, name: name) }
        // Safe: a slot stored under `ObjectIdentifier(Service.self)` always makes `Service`
        // values: `register` above and `ServiceCatalog.register` (which builds the key
        // from the same generic `Service`) are the only places that make slots.
        return try slot.resolve(as: Service.self)
    }

    /// Whether `type` (with `name`) is registered, without creating anything.
    public func isAvailable<Service>(_ type: Service.Type, name: String? = nil) -> Bool {
        store.slot(for: ServiceKey(type: ObjectIdentifier(type), typeName: "", name: name)) != nil
    }

    /// Removes the registration of `type` (with `name`), releasing its singleton.
    ///
    /// - Returns: `false` when there was none.
    @discardableResult
    public func unregister<Service>(_ type: Service.Type, name: String? = nil) -> Bool {
        store.remove(ServiceKey(type: ObjectIdentifier(type), typeName: "", name: name))
    }

    /// Every registration as `Type` or `Type named 'x'`, sorted.
    public var registeredServices: [String] { store.keys.map(\.description).sorted() }

    private func notRegistered<Service>(_ type: Service.Type, name: String?) -> HiveError {
        let key = ServiceKey(type, name: name)
        var message = "no service '\(key)' is registered"
        if name != nil, isAvailable(type) { message += " (a default registration without a name exists)" }
        return HiveError(.notRegistered, module: owner, message)
    }
}
