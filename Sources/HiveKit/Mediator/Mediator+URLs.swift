extension Mediator {
    /// Performs the action a URL names (CTMediator's `performActionWithUrl:completion:`):
    /// `scheme://target/action?key=value` calls `action` of `target` with the query
    /// items as string parameters (the last of a repeated name), besides `extras`; the
    /// query wins on a name clash. Any scheme is accepted: the control socket or an HTTP
    /// module can pass their URLs on.
    ///
    /// Only actions registered with `acceptsURLs: true` can be performed this way: a
    /// URL can come from outside the process, and an action is native-only unless it
    /// says otherwise. A missing action goes to the not-found action or handler as with
    /// ``perform(target:action:params:cachesTarget:)``; its request's ``ActionRequest/url`` tells
    /// that the call came from a URL.
    ///
    /// - Returns: what the action returned; the caller awaits it (CTMediator's completion).
    /// - Throws: ``HiveError`` `.invalidRoute` for a malformed URL or one that is not
    ///   `scheme://target/action`; `.notFound` for a native-only action, or as
    ///   ``perform(target:action:params:cachesTarget:)``.
    @discardableResult
    public func perform(url: String, extras: [String: any Sendable] = [:]) async throws(HiveError) -> any Sendable {
        try await call(Self.request(for: url, extras: extras))
    }

    /// Performs the action `url` names like ``perform(url:extras:)`` and returns its
    /// result as a `Value`.
    ///
    /// - Throws: as ``perform(url:extras:)``, or `.typeMismatch` when the result is not
    ///   a `Value`.
    public func perform<Value>(
        url: String, extras: [String: any Sendable] = [:], as type: Value.Type
    ) async throws(HiveError) -> Value {
        let request = try Self.request(for: url, extras: extras)
        let result = try await call(request)
        return try Self.cast(result, as: Value.self, target: request.target, action: request.action)
    }

    /// Whether `url` names an action that a URL may perform.
    package func canPerform(url: String) -> Bool {
        guard let request = try? Self.request(for: url, extras: [:]),
            case .action(let action)? = try? store.destination(target: request.target, action: request.action)
        else { return false }
        return action.acceptsURLs
    }

    /// The request `url` stands for.
    static func request(for url: String, extras: [String: any Sendable]) throws(HiveError) -> ActionRequest {
        let parsed = try RouteURL(url, keepsHostCase: true)
        guard parsed.scheme != nil, parsed.hasHost, parsed.components.count == 2 else {
            throw HiveError(.invalidRoute, "'\(url)' does not name an action: expected scheme://target/action?key=value")
        }
        var parameters = extras
        var queryNames = Set<String>()
        for item in parsed.query {
            parameters[item.name] = item.value
            queryNames.insert(item.name)
        }
        return ActionRequest(
            target: parsed.components[0], action: parsed.components[1], parameters: parameters, url: url,
            queryNames: queryNames)
    }
}
