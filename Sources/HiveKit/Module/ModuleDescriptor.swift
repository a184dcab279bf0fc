/// How a module takes part in the hive: its name, place in the order, concurrency,
/// time budget, settings, and which of its routes and actions calls from outside the
/// process may reach.
///
/// The order is level (basic first), then priority (higher first), then registration
/// order. Teardown runs in exactly the reverse of that order.
public struct ModuleDescriptor: Sendable, Hashable {
    /// Unique within a hive; used in logs, lookups and errors.
    public var name: String
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

    /// A descriptor; only the name is required.
    public init(
        name: String,
        level: ModuleLevel = .normal,
        priority: Int = 0,
        isAsync: Bool = false,
        budget: Duration? = nil,
        settings: Settings = Settings(),
        exportedRoutes: Set<String> = [],
        exportedActions: Set<String> = []
    ) {
        self.name = name
        self.level = level
        self.priority = priority
        self.isAsync = isAsync
        self.budget = budget
        self.settings = settings
        self.exportedRoutes = exportedRoutes
        self.exportedActions = exportedActions
    }
}
