/// A service registration as a listing shows it: what ``ServiceRegistry/definitions``
/// returns, and what the control socket lists.
public struct ServiceDefinition: Sendable, Hashable {
    /// The service type's name (`Clock`).
    public let service: String
    /// The variant's name; `nil` for the default registration.
    public let name: String?
    /// `singleton` or `transient`.
    public let lifetime: ServiceLifetime
    /// The implementation's name when it came from a ``ServiceCatalog`` (the
    /// configuration file or an annotation); `nil` for a factory registered in code.
    public let implementation: String?
    /// The module that registered it; `nil` for the hive itself.
    public let owner: String?
}
