import Logging

/// How one route table reads and matches URLs: what JLRoutes sets with its global
/// switches and MGJRouter does always, per table here (a scheme's, or the global one),
/// so nothing is shared between hives or tables.
///
/// ```swift
/// var options = RouteOptions()
/// options.decodesPlusInQuery = false                   // JLRoutes' setShouldDecodePlusSymbols:NO
/// options.alwaysTreatsHostAsPathComponent = false      // its default: https://www.x.com/a is /a
/// hive.router.setOptions(options, scheme: "https")
/// ```
/// Set through ``Router/setOptions(_:scheme:)``. How URLs are read (``decodesPlusInQuery``,
/// ``alwaysTreatsHostAsPathComponent``) and matched (``matchesPrefixes``) applies at
/// once; how patterns are compiled (``literalSuffixes``, ``matcher``) applies to the
/// routes registered afterwards, as JLRoutes' `setDefaultRouteDefinitionClass:` does.
public struct RouteOptions: Sendable {
    /// Whether URLs of this scheme that none of its routes handled try the global table
    /// (JLRoutes' `shouldFallbackToGlobalRoutes`, off there by default); `true` by
    /// default. Meaningless for the global table.
    public var fallsBackToGlobal = true
    /// Whether `+` in a query item is a space (JLRoutes' `setShouldDecodePlusSymbols:`);
    /// `true` by default. `%2B` is always a `+`, and a `+` in the path stays a `+`
    /// (JLRoutes turns both into spaces in path parameters too).
    public var decodesPlusInQuery = true
    /// Whether the host is the first path component whatever it is
    /// (JLRoutes' `setAlwaysTreatsHostAsPathComponent:`); `true` by default. When
    /// `false`, a host that is `localhost` or has a dot is dropped, as JLRoutes does by
    /// default: `https://www.mydomain.com/sign_in` is `/sign_in`.
    public var alwaysTreatsHostAsPathComponent = true
    /// Whether a pattern also answers longer URLs (MGJRouter's implicit prefix match):
    /// `mgj://search` answers `mgj://search/travel/china`, the extra components in
    /// ``RouteRequest/wildcard``. Such matches are tried after every exact one, the
    /// longest pattern first. `false` by default: a pattern matches its own length only.
    public var matchesPrefixes = false
    /// Whether a parameter's name ends at its first `.` or `&`, the rest of its segment
    /// being a literal the URL's component must end with (MGJRouter's `:id.html`, which
    /// takes `123` from `123.html`); `false` by default, where `:id.html` names a
    /// parameter `id.html`. Only a `#` always ends a name (`/:object#/:action`).
    public var literalSuffixes = false
    /// Where the table tells how it routes each URL (JLRoutes' `setVerboseLoggingEnabled:`):
    /// the routes it tries, which declined and which handled it, at debug level; `nil`
    /// (the default) logs nothing.
    public var logger: Logger?
    /// Makes the matcher of each route registered afterwards with a pattern and no matcher
    /// of its own (JLRoutes' `setDefaultRouteDefinitionClass:`); `nil` (the default)
    /// compiles the pattern as usual.
    public var matcher: (@Sendable (_ pattern: String) -> any RouteMatcher)?

    /// HiveKit's defaults: fall back to the global table, `+` a space in the query, the
    /// host always a path component, exact matches, no suffixes, no logging.
    public init() {}

    /// How URLs are read under these options.
    var parsing: RouteURL.Parsing {
        RouteURL.Parsing(
            decodesPlusInQuery: decodesPlusInQuery, alwaysTreatsHostAsPathComponent: alwaysTreatsHostAsPathComponent)
    }
}
