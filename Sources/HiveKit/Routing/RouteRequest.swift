/// What a route handler is given: the URL, the pattern that matched, the URL's
/// parameters, and the values the caller passed beside the URL.
public struct RouteRequest: Sendable {
    /// The URL as passed to ``Router/open(_:extras:)``.
    public let url: String
    /// The pattern as registered, e.g. `hive://cache/flush/:region`.
    public let pattern: String
    /// The URL's scheme, lower-cased; `nil` for a bare path.
    public let scheme: String?
    /// The URL's parameters: query items, then path parameters (which win on a name
    /// clash), all URL-decoded; of repeated query items the last wins (``query`` has
    /// them all).
    public let parameters: [String: String]
    /// Every query item's values in URL order, URL-decoded: `?tag=a&tag=b` gives
    /// `["tag": ["a", "b"]]` (JLRoutes gives repeated keys as an array).
    public let query: [String: [String]]
    /// The path components a trailing `*` matched (JLRoutes' `JLRouteWildcardComponentsKey`),
    /// or those past the pattern in a prefix match (``RouteOptions/matchesPrefixes``).
    public let wildcard: [String]
    /// The URL's path components as the route matched them: percent-decoded, the host
    /// first; for a pattern that names the fragment, with the fragment's path joined on by
    /// `#` (`["user#", "view", "joeldev"]`).
    public let path: [String]
    /// The values the caller passed beside the URL (JLRoutes' `routeURL:withParameters:`,
    /// MGJRouter's `userInfo`), as given: any `Sendable` values, not only strings.
    public let extras: [String: any Sendable]
    /// The module whose route this is, for errors.
    let owner: String?
    /// The extras came as text (a call from outside the process): ``parameter(_:as:)``
    /// parses them as it parses the URL's.
    var extrasAreText = false

    /// The URL parameter named `name`, if present.
    public subscript(_ name: String) -> String? { parameters[name] }

    /// The parameter named `name` as a `Value`, from the URL (which wins on a clash) or
    /// else from ``extras``. A URL parameter (or one a call from outside the process
    /// passed) is parsed when `Value` is not `String` (`Int`, `Double`, `Bool`, any
    /// `LosslessStringConvertible`).
    ///
    /// ```swift
    /// let id = try request.parameter("id", as: Int.self)        // hive://user/:id
    /// let user = try request.parameter("user", as: User.self)   // open(url, extras: ["user": user])
    /// ```
    /// - Throws: ``HiveError`` `.invalidParameter` when it is missing or cannot be read
    ///   as a `Value`.
    public func parameter<Value>(_ name: String, as type: Value.Type = Value.self) throws(HiveError) -> Value {
        let raw: (any Sendable)? = parameters[name] ?? extras[name]
        if let raw, let value = ParameterValue.convert(raw, to: Value.self, parsing: parameters[name] != nil || extrasAreText) {
            return value
        }
        throw ParameterValue.error(name, raw, as: Value.self, in: "route '\(pattern)'", module: owner)
    }
}
