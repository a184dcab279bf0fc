/// A module type that builds itself from its configuration entry, so that it can be
/// declared with an annotation (``HiveAnnotations/module(_:name:exportedRoutes:exportedActions:file:line:)``) or
/// registered in a catalog by type (``ModuleCatalog/register(_:name:file:line:)``).
///
/// ```swift
/// struct ShopModule: ConfigurableModule {
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
}
