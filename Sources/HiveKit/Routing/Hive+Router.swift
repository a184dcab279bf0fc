extension Hive {
    /// The URL router, acting for the hive: routes registered here belong to no module.
    public var router: Router { Router(hive: self, owner: nil) }
}

extension ModuleContext {
    /// The URL router, acting for this module: its routes (and an unmatched-URL handler
    /// it sets) are removed when the module is unregistered.
    public var router: Router { Router(hive: hive, owner: moduleName) }
}
