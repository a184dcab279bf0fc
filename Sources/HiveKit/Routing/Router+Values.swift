extension Router {
    /// Registers a route that produces a value for its caller (MGJRouter's
    /// `registerURLPattern:toObjectHandler:`): ``value(for:extras:as:)`` returns it, and
    /// ``open(_:extras:)`` counts it as handled. Returning `nil` declines, like `false`.
    ///
    /// ```swift
    /// try context.router.register("hive://cache/size/:region", producing: Int.self) { request in
    ///     await cache.count(region: try request.parameter("region"))
    /// }
    /// let size = try await hive.router.value(for: "hive://cache/size/eu", as: Int.self)
    /// ```
    /// The handler is `async`: it may take its time (MGJRouter's completion block) and
    /// the caller awaits the result.
    /// - Throws: as ``register(_:priority:exported:matcher:handler:)``.
    public func register<Value: Sendable>(
        _ pattern: String, priority: Int = 0, exported: Bool = false, matcher: (any RouteMatcher)? = nil,
        producing type: Value.Type, handler: @escaping @Sendable (RouteRequest) async throws -> Value?
    ) throws(HiveError) {
        try add(
            pattern, priority: priority, exported: exported, matcher: matcher,
            body: .produces { request in try await handler(request) })
    }

    /// Routes `url` like ``open(_:extras:)`` and returns what the handler that took it
    /// produced (MGJRouter's `objectForURL:`, `openURL:completion:`).
    ///
    /// - Throws: ``HiveError`` `.notFound` when no handler took the URL (the
    ///   unmatched-URL handler, if any, was called); `.typeMismatch` when the handler
    ///   produced something else, or nothing (a route registered with
    ///   ``register(_:priority:exported:matcher:handler:)`` only accepts); otherwise as
    ///   ``open(_:extras:)``.
    public func value<Value>(
        for url: String, extras: [String: any Sendable] = [:], as type: Value.Type
    ) async throws(HiveError) -> Value {
        guard let (result, route) = try await route(url, extras: extras).handled else {
            throw HiveError(.notFound, "no route handled '\(url)'")
        }
        guard let value = result as? Value else {
            let produced = result is Void ? "no value" : "a \(Swift.type(of: result))"
            throw HiveError(
                .typeMismatch, module: route.owner,
                "route '\(route.text)' produced \(produced) for '\(url)', not a \(Value.self)")
        }
        return value
    }
}
