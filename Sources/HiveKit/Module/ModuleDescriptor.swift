/// How a module takes part in the hive: its name, place in the order, concurrency,
/// time budget and settings.
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

    /// A descriptor; only the name is required.
    public init(
        name: String,
        level: ModuleLevel = .normal,
        priority: Int = 0,
        isAsync: Bool = false,
        budget: Duration? = nil,
        settings: Settings = Settings()
    ) {
        self.name = name
        self.level = level
        self.priority = priority
        self.isAsync = isAsync
        self.budget = budget
        self.settings = settings
    }
}
