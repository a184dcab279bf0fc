/// What an annotation declares, and every declaration found in the program.
///
/// ``module(_:name:exportedRoutes:exportedActions:file:line:)`` and
/// ``service(_:implementation:lifetime:file:line:factory:)``
/// are meant to be the one call in a ``HiveAnnotation``'s function: HiveKit calls those
/// functions while it scans, and records what they declare; called at any other time
/// they do nothing. ``ModuleCatalog/registerAnnotations()`` and
/// ``ServiceCatalog/registerAnnotations()`` add the declarations to a catalog, and
/// ``declarations()`` lists them.
public enum HiveAnnotations {
    /// The ELF section annotations are placed in.
    public static let section = "hivekit_annotations"

    /// Declares the module type `type`, built from a configuration entry by its
    /// ``ConfigurableModule/init(_:)``, under `name` (default: the type's own name, e.g.
    /// `ShopModule`), taking the settings its ``ConfigurableModule/settingKeys`` lists.
    ///
    /// - Parameters: `exportedRoutes` (patterns, as the module registers them) and
    ///   `exportedActions` (names): what every module of this type lets calls from outside
    ///   the process reach (``ModuleDescriptor/exportedRoutes``), besides what its
    ///   configuration entry exports.
    public static func module<Declared: ConfigurableModule>(
        _ type: Declared.Type, name: String? = nil, exportedRoutes: Set<String> = [],
        exportedActions: Set<String> = [], file: String = #fileID, line: Int = #line
    ) {
        module(
            type, name: name, settings: Declared.settingKeys, exportedRoutes: exportedRoutes,
            exportedActions: exportedActions, file: file, line: line
        ) { descriptor in try Declared(descriptor) }
    }

    /// Declares the module type `type`, built by `factory`, under `name` (default: the
    /// type's own name), taking the settings `settings` lists (default: none;
    /// ``SettingKeys/any`` for free-form settings), exporting what
    /// ``module(_:name:exportedRoutes:exportedActions:file:line:)`` says.
    public static func module<Declared: Module>(
        _ type: Declared.Type, name: String? = nil, settings: SettingKeys = [], exportedRoutes: Set<String> = [],
        exportedActions: Set<String> = [], file: String = #fileID, line: Int = #line,
        factory: @escaping @Sendable (ModuleDescriptor) throws -> Declared
    ) {
        AnnotationCollector.shared.add(
            .module(
                ModuleAnnotation(
                    name: name ?? ServiceKey.name(of: Declared.self), file: file, line: line,
                    factory: { descriptor in try factory(descriptor) }, settings: settings, exportedRoutes: exportedRoutes,
                    exportedActions: exportedActions)))
    }

    /// Declares `implementation` as an implementation of `service`, known under both
    /// types' own names (`services: [{service: WallClock, implementation: SystemClock}]`);
    /// `factory` makes an instance, and returning `Service` is what proves, at compile
    /// time, that the implementation conforms.
    ///
    /// - Parameters:
    ///   - service: the service type, usually a protocol.
    ///   - implementation: the implementation's type, whose name a configuration uses.
    ///   - lifetime: what a configuration entry that names no `lifetime` gets.
    ///   - file: where the declaration is, for errors; leave the default.
    ///   - line: its line; leave the default.
    ///   - factory: makes an instance, typed as the service.
    public static func service<Service: Sendable, Implementation>(
        _ service: Service.Type, implementation: Implementation.Type, lifetime: ServiceLifetime = .singleton,
        file: String = #fileID, line: Int = #line, factory: @escaping @Sendable () throws -> Service
    ) {
        let serviceName = ServiceKey.name(of: Service.self)
        let implementationName = ServiceKey.name(of: Implementation.self)
        AnnotationCollector.shared.add(
            .service(
                ServiceAnnotation(
                    serviceID: ObjectIdentifier(Service.self), service: serviceName,
                    implementation: implementationName, lifetime: lifetime, file: file, line: line,
                    register: { catalog, origin in
                        catalog.register(
                            Service.self, service: serviceName, implementation: implementationName,
                            lifetime: lifetime, origin: origin, factory: factory)
                    })))
    }

    /// Every declaration in the executable and in the shared objects loaded so far, in
    /// the order of the images, then of the section.
    ///
    /// The first call scans; later calls scan only shared objects loaded since. The images
    /// are listed by `dl_iterate_phdr`. The one HiveKit is linked into (the executable) is
    /// read from memory alone, between the linker's `__start_hivekit_annotations` and
    /// `__stop_hivekit_annotations`: no file is opened and `/proc` is not needed. A shared
    /// object's section is found in its file's section headers.
    /// - Throws: ``HiveError`` `.invalidAnnotation` for a malformed entry (naming the
    ///   image and the entry), `.duplicateRegistration` for two declarations of the same
    ///   module type or of the same implementation of a service (naming both places).
    public static func declarations() throws(HiveError) -> [AnnotationDeclaration] {
        try AnnotationRegistry.shared.all().map(\.declaration)
    }
}
