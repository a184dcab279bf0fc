/// Maps module type names from a configuration file to factories, standing in for
/// BeeHive's `NSClassFromString` (which Linux does not have).
///
/// ```swift
/// var catalog = ModuleCatalog()
/// catalog.register("cache", settings: ["ttl", "capacity"]) { descriptor in
///     try CacheModule(settings: descriptor.settings)
/// }
/// catalog.register("clock") { _ in ClockModule() }  // takes no settings
/// catalog.register(ShopModule.self)                 // a ConfigurableModule, as "ShopModule"
/// try catalog.registerAnnotations()                 // every type declared with an annotation
/// let hive = try Hive(modules: try catalog.instantiate(descriptors))
/// ```
///
/// Every registration says which settings its type takes (``SettingKeys``; none unless
/// it says otherwise), and the catalog refuses any other key before the factory runs: a
/// misspelt `tll: 5s` is an error at its line (`PATH:LINE: module 'cache': unknown
/// setting 'tll'; expected ttl, capacity`), never silently ignored.
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
        let settings: SettingKeys
        var exportedRoutes: Set<String> = []
        var exportedActions: Set<String> = []
    }

    var entries: [String: Entry] = [:]

    /// An empty catalog.
    public init() {}

    /// Makes `type` buildable by name, taking the settings `settings` lists (default:
    /// none; ``SettingKeys/any`` for free-form settings); a later registration of the same
    /// name replaces it. `file` and `line` say where, for errors.
    public mutating func register(
        _ type: String, settings: SettingKeys = [], file: String = #fileID, line: Int = #line,
        factory: @escaping Factory
    ) {
        entries[type] = Entry(factory: factory, origin: "\(file):\(line)", settings: settings)
    }

    /// Makes the module type `type` buildable under `name` (default: the type's own
    /// name, e.g. `ShopModule`) through its ``ConfigurableModule/init(_:)``, taking the
    /// settings its ``ConfigurableModule/settingKeys`` lists.
    public mutating func register<Registered: ConfigurableModule>(
        _ type: Registered.Type, name: String? = nil, file: String = #fileID, line: Int = #line
    ) {
        register(name ?? ServiceKey.name(of: Registered.self), settings: Registered.settingKeys, file: file, line: line) {
            descriptor in try Registered(descriptor)
        }
    }

    /// The registered type names, sorted.
    public var typeNames: [String] { entries.keys.sorted() }

    /// Whether `type` can be built.
    public func contains(_ type: String) -> Bool { entries[type] != nil }

    /// Builds the module `descriptor` declares, through the factory of its ``ModuleDescriptor/type``.
    ///
    /// - Throws: ``HiveError`` naming the module when it names no type or an unknown one,
    ///   when a setting is one its type does not take (at the key's line), or when its
    ///   factory throws.
    public func instantiate(_ descriptor: ModuleDescriptor) throws(HiveError) -> any Module {
        guard let type = descriptor.type, let entry = entries[type] else {
            let what = descriptor.type.map { "unknown module type '\($0.abbreviated())'" } ?? "no module type"
            throw HiveError(
                .unknownModuleType, module: descriptor.name, location: descriptor.location,
                "\(what) (known: \(typeNames.joined(separator: ", ")))")
        }
        let declared = self.declared(descriptor)
        do {
            try entry.settings.check(declared.settings)
            return try entry.factory(declared)
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

    /// Throws when `descriptor` has a setting its type does not take, as
    /// ``instantiate(_:)`` would (a type the catalog does not know is left to it).
    func checkSettings(_ descriptor: ModuleDescriptor) throws(HiveError) {
        guard let type = descriptor.type, let entry = entries[type] else { return }
        try entry.settings.check(declared(descriptor).settings)
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
