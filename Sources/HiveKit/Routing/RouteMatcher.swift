/// A route's own way of matching URLs (JLRoutes' `JLRRouteDefinition` subclass): it
/// decides whether a URL matches and which parameters the handler gets.
///
/// ```swift
/// struct Version: RouteMatcher {            // /v1/…, /v2/…: the version as a parameter
///     func match(_ request: RouteRequest) -> [String: String]? {
///         guard let first = request.path.first, first.hasPrefix("v"), Int(first.dropFirst()) != nil else { return nil }
///         return ["version": String(first.dropFirst())]
///     }
/// }
/// try router.register("api://versioned", matcher: Version()) { request in … }
/// ```
/// A route with a matcher is registered under its pattern's scheme (`api://versioned`
/// goes to the `api` table), and listed and unregistered by that pattern, which is not
/// otherwise compiled. Its matches are tried in priority, then registration, order among
/// the table's exact matches. ``RouteOptions/matcher`` gives every route of a table a
/// matcher made from its pattern.
public protocol RouteMatcher: Sendable {
    /// The parameters the route takes from `request`, which then go over the query's
    /// (JLRoutes' `routeResponseForRequest:`); `nil` when the route does not match.
    ///
    /// `request.path` holds the URL's path components as the table reads them,
    /// `request.parameters` and `request.query` its query items; `request.pattern` is the
    /// route's. Called without any lock held, once per open (or ``Router/canOpen(_:)``)
    /// that reaches its table; keep it quick and free of side effects.
    func match(_ request: RouteRequest) -> [String: String]?
}
