/// A call from outside the process (the control socket's `OpenURL` and `PerformAction`):
/// it reaches only exported routes and actions (registered with `exported: true`, or
/// exported by their module's descriptor), with parameters that are text, and never the
/// unmatched-URL or not-found handlers, which are the process's own.
package enum OutsideCall {
    /// Why a call from outside reached nothing.
    package enum Refusal: Error, Sendable, Equatable {
        /// No route matches the URL; no such target or action.
        case notFound(String)
        /// What it names exists, but is not exported.
        case notExported(String)

        /// What the refusal says.
        package var message: String {
            switch self {
            case .notFound(let message), .notExported(let message): message
            }
        }
    }
}

extension Hive {
    /// Opens `url` for a call from outside: its exported matching routes are tried in the
    /// router's order until one handles it; `parameters` reach the handler as extras,
    /// read (and parsed) like the URL's own.
    ///
    /// - Returns: whether a route handled it, and what a producing route produced (`nil`
    ///   for a route that only accepts).
    /// - Throws: ``OutsideCall/Refusal`` (`.notFound` for a malformed URL too, saying what
    ///   is wrong); a ``HiveError``: `.refusedEvent` once the hive has stopped, the
    ///   handler's failure.
    package func openFromOutside(
        _ url: String, parameters: [String: String]
    ) async throws -> (handled: Bool, result: (any Sendable)?) {
        let routing: Router.Routing
        do {
            routing = try await router.route(url, extras: parameters) { route in
                route.exported || self.exportsByDescriptor(route)
            }
        } catch {
            let message = error.message
            if error.code == .invalidRoute { throw OutsideCall.Refusal.notFound(message) }
            throw error
        }
        if let (result, _) = routing.handled { return (true, result is Void ? nil : result) }
        if routing.called > 0 { return (false, nil) }
        if let refused = routing.refused {
            let module = refused.owner.map { " of module '\($0)'" } ?? ""
            let matching = refused.text == url ? "" : ", which '\(url)' matches,"
            throw OutsideCall.Refusal.notExported(
                "route '\(refused.text)'\(module)\(matching) is not exported: only the daemon's own modules may open it")
        }
        throw OutsideCall.Refusal.notFound("no route matches '\(url)'")
    }

    /// Performs `action` of `target` for a call from outside, if it is exported; the
    /// handler gets `parameters` as text, read (and parsed) like a URL's query items.
    ///
    /// - Returns: what the action returned.
    /// - Throws: ``OutsideCall/Refusal``; a ``HiveError``: `.refusedEvent` once the hive
    ///   has stopped, the handler's failure.
    package func performFromOutside(target: String, action: String, parameters: [String: String]) async throws -> any Sendable {
        guard let found = try actionStore.action(target: target, action: action) else {
            throw OutsideCall.Refusal.notFound(mediator.notFoundMessage(target: target, action: action))
        }
        guard found.exported || exportsByDescriptor(found) else {
            throw OutsideCall.Refusal.notExported(
                "action '\(action)' of target '\(target)' is not exported: only the daemon's own modules may perform it")
        }
        return try await found.call(
            ActionRequest(target: target, action: action, parameters: parameters, url: nil, queryNames: Set(parameters.keys)))
    }
}
