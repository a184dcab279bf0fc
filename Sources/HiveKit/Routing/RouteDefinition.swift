/// A registered route as a listing shows it (JLRoutes' `JLRRouteDefinition`): what
/// ``Router/definitions`` returns, and what the control socket lists.
public struct RouteDefinition: Sendable, Hashable {
    /// The pattern as registered, e.g. `hive://cache/flush/:region`.
    public let pattern: String
    /// The table it is in: its scheme, lower-cased; `nil` for the global table.
    public let scheme: String?
    /// Its priority within its table (higher is tried first).
    public let priority: Int
    /// The module that registered it; `nil` for the hive itself.
    public let owner: String?
    /// Whether a call from outside the process (the control socket's `OpenURL`) may reach
    /// it: registered with `exported: true`, or exported by its module's configuration.
    public let exported: Bool

    /// A listing entry; HiveKit makes these from its routes.
    package init(pattern: String, scheme: String?, priority: Int, owner: String?, exported: Bool = false) {
        self.pattern = pattern
        self.scheme = scheme
        self.priority = priority
        self.owner = owner
        self.exported = exported
    }
}
