/// Maps module type names from a configuration file to factories, standing in for
/// BeeHive's `NSClassFromString` (which Linux does not have).
///
/// ```swift
/// var catalog = ModuleCatalog()
/// catalog.register("cache") { descriptor in try CacheModule(settings: descriptor.settings) }
/// let registrations = try catalog.registrations(for: specs)
/// ```
public struct ModuleCatalog: Sendable {
    /// Builds a module from its descriptor; may throw when the settings are unusable.
    ///
    /// A factory may run more than once for the same configuration entry (hived builds
    /// every module once to validate a file, in `check-config` and before a reload): keep
    /// it to checking settings and constructing, and do the work in `setup`.
    public typealias Factory = @Sendable (ModuleDescriptor) throws -> any Module

    private var factories: [String: Factory] = [:]

    /// An empty catalog.
    public init() {}

    /// Makes `type` buildable by name; a later registration of the same name replaces it.
    public mutating func register(_ type: String, factory: @escaping Factory) {
        factories[type] = factory
    }

    /// The registered type names, sorted.
    public var typeNames: [String] { factories.keys.sorted() }

    /// Whether `type` can be built.
    public func contains(_ type: String) -> Bool { factories[type] != nil }

    /// Builds the module `spec` declares.
    ///
    /// - Throws: ``HiveError`` naming the module when its type is unknown or its
    ///   factory throws.
    public func instantiate(_ spec: ModuleSpec) throws(HiveError) -> ModuleRegistration {
        guard let factory = factories[spec.type] else {
            throw HiveError(
                .unknownModuleType, module: spec.name, location: spec.location,
                "unknown module type '\(spec.type)' (known: \(typeNames.joined(separator: ", ")))")
        }
        var descriptor = spec.descriptor
        descriptor.settings.owner = spec.name
        do {
            return ModuleRegistration(spec.descriptor, module: try factory(descriptor))
        } catch let error as HiveError {
            guard error.location == nil else { throw error }
            throw HiveError(
                error.code, module: error.module ?? spec.name, event: error.event, location: spec.location,
                error.message, underlying: error.underlying)
        } catch {
            throw HiveError(
                .invalidSettings, module: spec.name, location: spec.location,
                "cannot create module of type '\(spec.type)': \(error)", underlying: error)
        }
    }

    /// Builds every enabled module in `specs`, in order.
    ///
    /// - Throws: ``HiveError`` for the first duplicate name, unknown type or failing
    ///   factory; nothing is built half-way.
    public func registrations(for specs: [ModuleSpec]) throws(HiveError) -> [ModuleRegistration] {
        var seen = Set<String>()
        var result: [ModuleRegistration] = []
        for spec in specs {
            guard seen.insert(spec.name).inserted else {
                throw HiveError(
                    .duplicateModule, module: spec.name, location: spec.location,
                    "duplicate module name '\(spec.name)'")
            }
            guard spec.isEnabled else { continue }
            result.append(try instantiate(spec))
        }
        return result
    }
}
