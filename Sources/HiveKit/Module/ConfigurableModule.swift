/// A module type that builds itself from its configuration entry, so that it can be
/// declared with an annotation (``HiveAnnotations/module(_:name:exportedRoutes:exportedActions:file:line:)``) or
/// registered in a catalog by type (``ModuleCatalog/register(_:name:file:line:)``).
///
/// It lists the settings it takes in ``settingKeys`` (none unless it does); the catalog
/// refuses any other key before `init` runs.
///
/// ```swift
/// struct ShopModule: ConfigurableModule {
///     static let settingKeys: SettingKeys = ["currency"]
///     let currency: String
///     init(_ descriptor: ModuleDescriptor) throws {
///         currency = try descriptor.settings.string("currency") ?? "EUR"
///     }
/// }
/// ```
public protocol ConfigurableModule: Module {
    /// Builds the module a configuration entry declares; throws when its settings are
    /// unusable. It may run more than once per entry (validation, `check-config`, before
    /// a reload): check settings and construct here, and do the work in `setup`.
    init(_ descriptor: ModuleDescriptor) throws

    /// The settings the type takes; a configuration entry with any other key is refused
    /// at that key's line. ``SettingKeys/any`` takes free-form settings.
    static var settingKeys: SettingKeys { get }
}

extension ConfigurableModule {
    /// No settings: a type that takes some lists them.
    public static var settingKeys: SettingKeys { [] }
}
