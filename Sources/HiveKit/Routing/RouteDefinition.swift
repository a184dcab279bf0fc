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

    /// A listing entry; HiveKit makes these from its routes.
    public init(pattern: String, scheme: String?, priority: Int, owner: String?) {
        self.pattern = pattern
        self.scheme = scheme
        self.priority = priority
        self.owner = owner
    }
}
