/// A service as a configuration file declares it (BeeHive's `BHService.plist` entry):
/// which service protocol, which implementation type from the service catalog, under
/// which name and with which lifetime.
public struct ServiceSpec: Sendable, Hashable {
    /// The service's registered name (the protocol's name, e.g. `Clock`).
    public var service: String
    /// The implementation type name known to the service catalog.
    public var implementation: String
    /// A variant name, a registration of its own; `nil` for the default registration.
    public var name: String?
    /// One shared instance or a new one per resolve; `nil` leaves it to the
    /// implementation's catalog entry (singleton unless it says transient).
    public var lifetime: ServiceLifetime?
    /// Where the entry was declared, for error messages.
    public var location: SourceLocation?

    /// A `services:` entry.
    public init(
        service: String, implementation: String, name: String? = nil,
        lifetime: ServiceLifetime? = nil, location: SourceLocation? = nil
    ) {
        self.service = service
        self.implementation = implementation
        self.name = name
        self.lifetime = lifetime
        self.location = location
    }

    /// The same entry without its location, to compare two files' entries.
    package var withoutLocation: ServiceSpec {
        var spec = self
        spec.location = nil
        return spec
    }
}
