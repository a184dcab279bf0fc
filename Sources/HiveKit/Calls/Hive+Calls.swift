extension Hive {
    /// Removes the services (releasing their singletons), routes and actions the module
    /// named `name` registered. Called whenever a module leaves the order.
    func forgetCalls(ownedBy names: Set<String>) {
        routeStore.removeAll(ownedBy: names)
        actionStore.removeAll(ownedBy: names)
        serviceStore.removeAll(ownedBy: names)
    }

    /// Once every module was torn down: releases every singleton service, newest first,
    /// and closes the services, routes and actions for good (the statistics of routes
    /// and actions stay readable).
    func closeCalls() {
        serviceStore.close()
        routeStore.close()
        actionStore.close()
    }
}

extension Hive {
    /// The profiler's figures for the routes and actions each module offers, by module:
    /// one pass over every route and action, so reading the profile of many modules
    /// costs no more than reading each module's share.
    func callStatsByOwner() -> [String: [String: HandlerStats]] {
        var calls: [String: [String: HandlerStats]] = [:]
        for route in routeStore.routes {
            guard let owner = route.owner else { continue }
            let stats = route.stats.withLock { $0 }
            if stats.calls > 0 { calls[owner, default: [:]]["route \(route.text)"] = stats }
        }
        for action in actionStore.all + actionStore.notFoundActions {
            let (owner, stats) = (action.owner, action.stats.withLock { $0 })
            // A target type's actions go by `Target.action`; the module's own by name.
            let name = action.target == owner ? action.name : "\(action.target.dropFirst(owner.count + 1)).\(action.name)"
            if stats.calls > 0 { calls[owner, default: [:]]["action \(name)"] = stats }
        }
        return calls
    }
}
