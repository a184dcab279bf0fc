/// Maps module type names from a configuration file to factories, standing in for
/// BeeHive's `NSClassFromString` (which Linux does not have).
///
/// ```swift
/// var catalog = ModuleCatalog()
/// catalog.register("cache") { descriptor in try CacheModule(settings: descriptor.settings) }
/// catalog.register(ShopModule.self)                 // a ConfigurableModule, as "ShopModule"
/// try catalog.registerAnnotations()                 // every type declared with an annotation
/// let hive = try Hive(modules: try catalog.instantiate(descriptors))
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

    /// Builds the module `descriptor` declares, through the factory of its ``ModuleDescriptor/type``.
    ///
    /// - Throws: ``HiveError`` naming the module when it names no type or an unknown one,
    ///   or when its factory throws.
    public func instantiate(_ descriptor: ModuleDescriptor) throws(HiveError) -> any Module {
        guard let type = descriptor.type, let factory = entries[type]?.factory else {
            let what = descriptor.type.map { "unknown module type '\($0.abbreviated())'" } ?? "no module type"
            throw HiveError(
                .unknownModuleType, module: descriptor.name, location: descriptor.location,
                "\(what) (known: \(typeNames.joined(separator: ", ")))")
        }
        let declared = self.declared(descriptor)
        do {
            return try factory(declared)
        } catch let error as HiveError {
            guard error.location == nil else { throw error }
            throw HiveError(
                error.code, module: error.module ?? descriptor.name, event: error.event, location: descriptor.location,
                error.message, underlying: error.underlying)
        } catch {
            throw HiveError(
                .invalidSettings, module: descriptor.name, location: descriptor.location,
                "cannot create module of type \(quoted: type): \(error)", underlying: error)
        }
    }

    /// What `descriptor` declares once its type is known: its settings owned by it, and
    /// what its type's annotation exports added to what its entry exports.
    func declared(_ descriptor: ModuleDescriptor) -> ModuleDescriptor {
        var declared = descriptor
        declared.settings.owner = descriptor.name
        if let type = descriptor.type, let entry = entries[type] {
            declared.exportedRoutes.formUnion(entry.exportedRoutes)
            declared.exportedActions.formUnion(entry.exportedActions)
        }
        return declared
    }

    /// Builds every enabled module in `descriptors`, in order, each with its descriptor:
    /// what ``Hive/init(_:modules:)`` takes.
    ///
    /// - Throws: ``HiveError`` for the first duplicate name, missing or unknown type or
    ///   failing factory; nothing is built half-way.
    public func instantiate(
        _ descriptors: [ModuleDescriptor]
    ) throws(HiveError) -> [(module: any Module, descriptor: ModuleDescriptor)] {
        var seen = Set<String>()
        var result: [(module: any Module, descriptor: ModuleDescriptor)] = []
        for descriptor in descriptors {
            guard seen.insert(descriptor.name).inserted else {
                throw HiveError(
                    .duplicateModule, module: descriptor.name, location: descriptor.location,
                    "duplicate module name \(quoted: descriptor.name)")
            }
            guard descriptor.isEnabled else { continue }
            result.append((try instantiate(descriptor), declared(descriptor)))
        }
        return result
    }
}
