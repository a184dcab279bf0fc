extension ModuleContext {
    /// The module's sockets: those passed at start (socket activation) and its own
    /// descriptors in the descriptor store. See ``ModuleSockets``.
    public var sockets: ModuleSockets { ModuleSockets(table: hive.socketTable, module: moduleName) }
}

extension Hive {
    /// The names of passed descriptors no module has taken yet; empty once start-up ended.
    package var unclaimedSocketNames: [String] { socketTable.unclaimedNames() }
}
