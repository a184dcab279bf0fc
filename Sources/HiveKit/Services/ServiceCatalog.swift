/// Maps the service and implementation names a configuration file uses to types and
/// factories (BeeHive's `BHService.plist`; Linux has no `NSClassFromString`).
///
/// ```swift
/// var services = ServiceCatalog()
/// services.register(Clock.self, implementation: "SystemClock") { SystemClock() }
/// services.register(Clock.self, implementation: "FrozenClock") { FrozenClock() }
/// services.register(Request.self, implementation: "HTTPRequest", lifetime: .transient) { HTTPRequest() }
/// // services: [{service: Clock, implementation: SystemClock, lifetime: singleton}]
/// try hive.services.register(spec, catalog: services)
/// ```
///
/// Registering an implementation *for* a service type is what proves, at compile time,
/// that it conforms; a configuration entry pairing a service with an implementation
/// registered only for other services is a `.typeMismatch` error.
public struct ServiceCatalog: Sendable {
    /// Builds a registration of one implementation for one service type.
    typealias SlotMaker = @Sendable (ServiceKey, String?, ServiceLifetime, CreationLock) -> ServiceSlot

    struct ServiceType: Sendable {
        let id: ObjectIdentifier
        let typeName: String
    }

    /// One implementation of one service type.
    struct Implementation: Sendable {
        let make: SlotMaker
        /// The lifetime a configuration entry that names none gets.
        let lifetime: ServiceLifetime
        /// Where it was registered: `file:line` in code, or an annotation's place.
        let origin: String
    }

    private var services: [String: ServiceType] = [:]
    /// Implementation name → service type → registration builder.
    var implementations: [String: [ObjectIdentifier: Implementation]] = [:]

    /// An empty catalog.
    public init() {}

    /// Makes `implementation` available, by name, as an implementation of `type`.
    ///
    /// `type` becomes known under `service` (default: the type's own name, e.g. `Clock`).
    /// Register the same implementation name for several service types if it provides
    /// several; a later registration of the same pair replaces the earlier one.
    ///
    /// - Parameters:
    ///   - type: the service type, usually a protocol.
    ///   - service: the name a configuration gives the service; `nil`: the type's own name.
    ///   - implementation: the name a configuration gives the implementation.
    ///   - lifetime: what a configuration entry that names no `lifetime` gets. BeeHive's
    ///     `createService:` makes a new instance unless the implementation says
    ///     `+singleton`; HiveKit shares one unless the implementation (or the entry) says
    ///     `.transient`.
    ///   - file: where the registration is, for errors.
    ///   - line: its line.
    ///   - factory: makes an instance, typed as the service.
    public mutating func register<Service: Sendable>(
        _ type: Service.Type,
        service: String? = nil,
        implementation: String,
        lifetime: ServiceLifetime = .singleton,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> Service
    ) {
        register(
            type, service: service, implementation: implementation, lifetime: lifetime, origin: "\(file):\(line)",
            factory: factory)
    }

    mutating func register<Service: Sendable>(
        _ type: Service.Type, service: String?, implementation: String, lifetime: ServiceLifetime, origin: String,
        factory: @escaping @Sendable () throws -> Service
    ) {
        // The static `Service`, not `type`, which may hold a subclass: see `ServiceKey`.
        let id = ObjectIdentifier(Service.self)
        let typeName = ServiceKey.name(of: Service.self)
        services[service ?? typeName] = ServiceType(id: id, typeName: typeName)
        let make: SlotMaker = { key, owner, lifetime, lock in
            ServiceSlot.of(
                Service.self, key: key, owner: owner, lifetime: lifetime, implementation: implementation, lock: lock,
                factory: factory)
        }
        implementations[implementation, default: [:]][id] = Implementation(make: make, lifetime: lifetime, origin: origin)
    }

    /// The service names a configuration may use, sorted.
    package var serviceNames: [String] { services.keys.sorted() }

    /// The implementation names a configuration may use, sorted.
    package var implementationNames: [String] { implementations.keys.sorted() }

    /// Checks that `spec` names a known service and a known implementation of it.
    ///
    /// - Throws: ``HiveError`` with the spec's location: `.notRegistered` for an unknown
    ///   service or implementation, `.typeMismatch` for an implementation that does not
    ///   conform to the service.
    public func validate(_ spec: ServiceSpec) throws(HiveError) {
        _ = try maker(for: spec)
    }

    /// The registration `spec` declares, owned by `owner`.
    func slot(for spec: ServiceSpec, owner: String?, lock: CreationLock) throws(HiveError) -> ServiceSlot {
        let (service, implementation) = try maker(for: spec)
        let key = ServiceKey(type: service.id, typeName: service.typeName, name: spec.name)
        return implementation.make(key, owner, spec.lifetime ?? implementation.lifetime, lock)
    }

    private func maker(for spec: ServiceSpec) throws(HiveError) -> (ServiceType, Implementation) {
        guard let service = services[spec.service] else {
            throw HiveError(
                .notRegistered, location: spec.location,
                "unknown service \(quoted: spec.service) (known: \(Self.list(serviceNames)))")
        }
        guard let provided = implementations[spec.implementation] else {
            throw HiveError(
                .notRegistered, location: spec.location,
                "unknown implementation \(quoted: spec.implementation) (known: \(Self.list(implementationNames)))")
        }
        guard let make = provided[service.id] else {
            let names = services.filter { provided[$0.value.id] != nil }.keys.sorted()
            throw HiveError(
                .typeMismatch, location: spec.location,
                "implementation \(quoted: spec.implementation) does not conform to service \(quoted: spec.service)"
                    + " (it implements: \(Self.list(names)))")
        }
        return (service, make)
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}
