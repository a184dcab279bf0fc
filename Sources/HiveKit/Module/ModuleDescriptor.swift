/// What a module declares: its name, the catalog type that builds it, its place in the
/// order, concurrency, time budget and settings, which of its routes and actions calls
/// from outside the process may reach, whether it is enabled and where it was declared
/// (BeeHive's `moduleClasses` plist entry, or a registration in code).
///
/// A module has three records, one for each reader:
/// - **what it declares**: a `ModuleDescriptor`, written in code or read from a
///   configuration file, and handed to the module's factory;
/// - **what the hive holds while it runs**: the instance, its descriptor (a reload may
///   replace it), where it is in its lifecycle, the hook it is running and its
///   statistics (internal to HiveKit);
/// - **what it shows observers**: a ``ModuleStatus`` (``Hive/moduleStatuses``).
///
/// The order is level (basic first), then priority (higher first), then registration
/// order. Teardown runs in exactly the reverse of that order.
///
/// ```swift
/// try await hive.register(Store(), as: ModuleDescriptor(name: "store", level: .basic, priority: 100))
/// ```
public struct ModuleDescriptor: Sendable, Hashable {
    /// Unique within a hive; used in logs, lookups and errors.
    public var name: String
    /// The catalog type that builds the module (``ModuleCatalog``); `nil` for a module
    /// registered in code, which a configuration reload never removes or replaces.
    public var type: String?
    /// Basic modules come before normal ones.
    public var level: ModuleLevel
    /// Higher runs first within a level.
    public var priority: Int
    /// An async module's hooks run concurrently with the other modules' (BeeHive's
    /// `BH_EXPORT_MODULE(YES)`); a sync module's run one after another. Teardown is
    /// always sequential.
    public var isAsync: Bool
    /// Time budget for each hook call; `nil` uses the hive's default.
    public var budget: Duration?
    /// The module's own settings, read through ``ModuleContext/settings``.
    public var settings: Settings
    /// Patterns of the module's routes that calls from outside the process (the control
    /// socket's `OpenURL`) may reach, as registered (`hive://cache/flush/:region`),
    /// besides those registered with `exported: true`. Set by the configuration's
    /// `export: {routes: […]}` or a module annotation's `exportedRoutes`.
    public var exportedRoutes: Set<String>
    /// Names of the module's actions that calls from outside the process (`PerformAction`)
    /// may reach (`Target.action` for an action of one of its target types), besides those
    /// registered with `exported: true`. Set by the
    /// configuration's `export: {actions: […]}` or a module annotation's `exportedActions`.
    public var exportedActions: Set<String>
    /// A disabled module is built (to check its settings) but never registered: a hive
    /// ignores it.
    public var isEnabled: Bool
    /// Where the module was declared (`file:line`), for error messages; `nil` in code.
    public var location: SourceLocation?

    /// A descriptor; only the name is required.
    public init(
        name: String,
        type: String? = nil,
        level: ModuleLevel = .normal,
        priority: Int = 0,
        isAsync: Bool = false,
        budget: Duration? = nil,
        settings: Settings = Settings(),
        exportedRoutes: Set<String> = [],
        exportedActions: Set<String> = [],
        isEnabled: Bool = true,
        location: SourceLocation? = nil
    ) {
        self.name = name
        self.type = type
        self.level = level
        self.priority = priority
        self.isAsync = isAsync
        self.budget = budget
        self.settings = settings
        self.exportedRoutes = exportedRoutes
        self.exportedActions = exportedActions
        self.isEnabled = isEnabled
        self.location = location
    }
}
