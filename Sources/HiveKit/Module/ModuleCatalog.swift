/// Maps module type names from a configuration file to factories, standing in for
/// BeeHive's `NSClassFromString` (which Linux does not have).
///
/// ```swift
/// var catalog = ModuleCatalog()
/// catalog.register("cache") { descriptor in try CacheModule(settings: descriptor.settings) }
/// catalog.register(ShopModule.self)                 // a ConfigurableModule, as "ShopModule"
/// try catalog.registerAnnotations()                 // every type declared with an annotation
/// let registrations = try catalog.registrations(for: specs)
/// ```
public struct ModuleCatalog: Sendable {
    /// Builds a module from its descriptor; may throw when the settings are unusable.
    ///
    /// A factory may run more than once for the same configuration entry (hived builds
    /// every module once to validate a file, in `check-config` and before a reload): keep
    /// it to checking settings and constructing, and do the work in `setup`.
    public typealias Factory = @Sendable (ModuleDescriptor) throws -> any Module

    /// A factory and where it was registered: `file:line` in code, or an annotation's
    /// place, which may also say what the type's modules export.
    struct Entry: Sendable {
        let factory: Factory
        let origin: String
        var exportedRoutes: Set<String> = []
        var exportedActions: Set<String> = []
    }

    var entries: [String: Entry] = [:]

    /// An empty catalog.
    public init() {}

    /// Makes `type` buildable by name; a later registration of the same name replaces it.
    /// `file` and `line` say where, for errors.
    public mutating func register(
        _ type: String, file: String = #fileID, line: Int = #line, factory: @escaping Factory
    ) {
        entries[type] = Entry(factory: factory, origin: "\(file):\(line)")
    }

    /// Makes the module type `type` buildable under `name` (default: the type's own
    /// name, e.g. `ShopModule`) through its ``ConfigurableModule/init(_:)``.
    public mutating func register<Registered: ConfigurableModule>(
        _ type: Registered.Type, name: String? = nil, file: String = #fileID, line: Int = #line
    ) {
        register(name ?? ServiceKey.name(of: Registered.self), file: file, line: line) { descriptor in
            try Registered(descriptor)
        }
    }

    /// The registered type names, sorted.
    public var typeNames: [String] { entries.keys.sorted() }

    /// Whether `type` can be built.
    public func contains(_ type: String) -> Bool { entries[type] != nil }

    /// Builds the module `spec` declares.
    ///
    /// - Throws: ``HiveError`` naming the module when its type is unknown or its
    ///   factory throws.
    public func instantiate(_ spec: ModuleSpec) throws(HiveError) -> ModuleRegistration {
        guard let factory = entries[spec.type]?.factory else {
            throw HiveError(
                .unknownModuleType, module: spec.name, location: spec.location,
                "unknown module type '\(spec.type.abbreviated())' (known: \(typeNames.joined(separator: ", ")))")
        }
        let descriptor = self.descriptor(for: spec)
        do {
            return ModuleRegistration(descriptor, module: try factory(descriptor))
        } catch let error as HiveError {
            guard error.location == nil else { throw error }
            throw HiveError(
                error.code, module: error.module ?? spec.name, event: error.event, location: spec.location,
                error.message, underlying: error.underlying)
        } catch {
            throw HiveError(
                .invalidSettings, module: spec.name, location: spec.location,
                "cannot create module of type \(quoted: spec.type): \(error)", underlying: error)
        }
    }

    /// The descriptor a module `spec` declares takes: its settings owned by it, and what
    /// its type's annotation exports added to what its entry exports.
    func descriptor(for spec: ModuleSpec) -> ModuleDescriptor {
        var descriptor = spec.descriptor
        descriptor.settings.owner = spec.name
        if let entry = entries[spec.type] {
            descriptor.exportedRoutes.formUnion(entry.exportedRoutes)
            descriptor.exportedActions.formUnion(entry.exportedActions)
        }
        return descriptor
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
                    "duplicate module name \(quoted: spec.name)")
            }
            guard spec.isEnabled else { continue }
            result.append(try instantiate(spec))
        }
        return result
    }
}
