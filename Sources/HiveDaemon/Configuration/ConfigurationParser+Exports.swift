import HiveKit
extension ConfigurationParser {
    /// A module's `export: {routes: ["hive://heartbeat/status"], actions: [beats]}`: the
    /// routes (patterns as the module registers them) and actions (names) that calls from
    /// outside the process may reach, besides those the module registers as exported.
    ///
    /// - Throws: for a malformed pattern or an empty name, at its line.
    func exports(_ node: ConfigNode, into descriptor: inout ModuleDescriptor) throws(HiveError) {
        let map = try node.map(keys: ["routes", "actions"], of: "a map with routes and actions")
        if let routes = map["routes"] {
            for item in try routes.list(of: "route patterns") {
                let pattern = try item.name()
                do {
                    try Router.validate(pattern)
                } catch {
                    throw item.error(error.message, module: descriptor.name)
                }
                descriptor.exportedRoutes.insert(pattern)
            }
        }
        if let actions = map["actions"] {
            for item in try actions.list(of: "action names") { descriptor.exportedActions.insert(try item.name()) }
        }
    }
}
