extension Hive {
    /// The mediator, acting for the hive: it performs actions but cannot expose any,
    /// since targets are modules.
    public var mediator: Mediator { Mediator(hive: self, owner: nil) }
}

extension ModuleContext {
    /// The mediator, acting for this module: actions registered here have this module as
    /// their target and are removed when it is unregistered.
    public var mediator: Mediator { Mediator(hive: hive, owner: moduleName) }
}
