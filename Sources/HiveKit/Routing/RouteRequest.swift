/// What a route handler is given: the URL, the pattern that matched, and the parameters.
public struct RouteRequest: Sendable {
    /// The URL as passed to ``Router/open(_:)``.
    public let url: String
    /// The pattern as registered, e.g. `hive://cache/flush/:region`.
    public let pattern: String
    /// The URL's scheme, lower-cased; `nil` for a bare path.
    public let scheme: String?
    /// Query items, then path parameters (which win on a name clash), all URL-decoded;
    /// of repeated query items the last wins (``query`` has them all).
    public let parameters: [String: String]
    /// Every query item's values in URL order, URL-decoded: `?tag=a&tag=b` gives
    /// `["tag": ["a", "b"]]` (JLRoutes gives repeated keys as an array).
    public let query: [String: [String]]
    /// The path components a trailing `*` matched (JLRoutes' `JLRouteWildcardComponentsKey`).
    public let wildcard: [String]

    /// The parameter named `name`, if present.
    public subscript(_ name: String) -> String? { parameters[name] }
}
