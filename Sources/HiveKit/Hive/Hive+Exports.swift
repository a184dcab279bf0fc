extension Hive {
    /// Whether the descriptor of the route's module exports it
    /// (``ModuleDescriptor/exportedRoutes``, by its pattern as registered); read now, so a
    /// reload's new descriptor counts from the moment it applies.
    func exportsByDescriptor(_ route: Route) -> Bool {
        guard let owner = route.owner else { return false }
        return state.withLock { $0.module(named: owner)?.descriptor.exportedRoutes.contains(route.text) } ?? false
    }

    /// Whether the descriptor of the action's module exports it
    /// (``ModuleDescriptor/exportedActions``: by name, or `Target.action` for an action of
    /// one of the module's target types).
    func exportsByDescriptor(_ action: Action) -> Bool {
        let name = action.target == action.owner
            ? action.name : "\(action.target.dropFirst(action.owner.count + 1)).\(action.name)"
        return state.withLock { $0.module(named: action.owner)?.descriptor.exportedActions.contains(name) } ?? false
    }
}
