extension Hive {
    /// Registers a module (BeeHive's `registerDynamicModule:`).
    ///
    /// Before ``start()`` the module only joins the order. In a started hive it receives
    /// `setup` then `init` at once (queued behind any event being delivered); if either
    /// throws, the module receives nothing more (as at start-up), is removed with
    /// whatever it registered, and the error is thrown.
    ///
    /// - Throws: ``HiveError``: `.duplicateModule`, `.refusedEvent` once the hive is
    ///   stopping, or the failure of the module's `setup`/`init`.
    public func register(_ registration: ModuleRegistration) async throws(HiveError) {
        try await register(registration, type: nil)
    }

    /// Builds a configured module through `catalog` and registers it like
    /// ``register(_:)``; a disabled spec is ignored.
    public func register(_ spec: ModuleSpec, catalog: ModuleCatalog) async throws(HiveError) {
        guard spec.isEnabled else { return }
        try await register(try catalog.instantiate(spec), type: spec.type)
    }

    /// Removes a module (BeeHive's `unRegisterDynamicModule:`): in a started hive it
    /// receives `teardown` then `unmount` (each abandoned past its budget) first.
    ///
    /// - Throws: ``HiveError`` (`.unknownModule`) when no module has that name.
    public func unregister(named name: String) async throws(HiveError) {
        try await takingTurn("unregister(named: \"\(name)\")", event: .teardown) { () throws(HiveError) in
            try await remove(named: name)
        }
    }

    func register(_ registration: ModuleRegistration, type: String?) async throws(HiveError) {
        try await takingTurn("register(\"\(registration.descriptor.name)\")", event: .setup) { () throws(HiveError) in
            try await mount(registration, type: type)
        }
    }

    /// Adds a module and, in a live hive, runs its `setup` and `init`. Caller holds the gate.
    func mount(_ registration: ModuleRegistration, type: String?) async throws(HiveError) {
        let phase = self.phase
        guard phase == .created || phase.isLive else {
            throw HiveError(
                .refusedEvent, module: registration.descriptor.name, event: .setup,
                "cannot register a module in phase '\(phase)'")
        }
        let entry = try add(registration, type: type)
        guard phase.isLive else { return }
        for (event, success) in [(HiveEvent.setup, ModuleEntry.Lifecycle.setUp), (.`init`, .active)] {
            if let failure = await call(entry, event, abandoning: false) {
                forget(named: entry.name)
                throw failure
            }
            state.withLock { $0.setLifecycle(success, of: entry) }
        }
    }

    /// Tears down, unmounts and removes a module. Caller holds the gate.
    func remove(named name: String) async throws(HiveError) {
        guard let entry = state.withLock({ $0.entry(named: name) }) else {
            throw HiveError(.unknownModule, module: name, "no module named '\(name)' is registered")
        }
        if entry.lifecycle == .active || entry.lifecycle == .setUp {
            _ = await call(entry, .teardown, abandoning: true)
            _ = await call(entry, .unmount, abandoning: true)
        }
        forget(named: name)
    }

    /// Drops a module from the order, with its services, routes, actions and stored
    /// descriptors; it receives nothing more.
    func forget(named name: String) {
        state.withLock { $0.remove(named: name) }
        forgetCalls(ownedBy: name)
        socketTable.forget(ownedBy: name)
    }
}
