extension Hive {
    /// Registers a module (BeeHive's `registerDynamicModule:shouldTriggerInitEvent:`).
    ///
    /// Before ``start(rollingBack:)`` the module only joins the order. In a started hive it is brought
    /// to the hive's phase at once (queued behind any event being delivered): `setup`,
    /// `init`, then `ready` if the hive already received `ready`, then `background` if the
    /// hive is suspended. If `setup` or `init` throws, the module receives nothing more (as
    /// at start-up), is removed with whatever it registered, and the error is thrown; a
    /// throw from `ready` or `background` is logged, as for any event.
    ///
    /// - Parameters:
    ///   - registration: the module and its descriptor.
    ///   - settingUp: `false` joins the module as it is, without `setup` or `init`
    ///     (BeeHive's `shouldTriggerInitEvent:NO`), nor `ready` or `background` to catch up:
    ///     it receives the events delivered from then on, `terminate`, `teardown` and
    ///     `unmount` included; before ``start(rollingBack:)``, it skips start-up's `setup`
    ///     and `init`.
    /// - Throws: ``HiveError``: `.duplicateModule`, `.refusedEvent` once the hive is
    ///   stopping, or the failure of the module's `setup`/`init`.
    public func register(_ registration: ModuleRegistration, settingUp: Bool = true) async throws(HiveError) {
        try await register(registration, type: nil, settingUp: settingUp)
    }

    /// Builds a configured module through `catalog` and registers it like
    /// ``register(_:settingUp:)``; a disabled spec is ignored.
    public func register(_ spec: ModuleSpec, catalog: ModuleCatalog) async throws(HiveError) {
        guard spec.isEnabled else { return }
        try await register(try catalog.instantiate(spec), type: spec.type)
    }

    /// Removes a module (BeeHive's `unRegisterDynamicModule:`). In a started hive it
    /// receives `terminate` (if it finished `init`), `teardown` and `unmount` first, each
    /// abandoned past its budget; then whatever it registered (services, routes, actions)
    /// goes with it.
    ///
    /// - Throws: ``HiveError`` (`.unknownModule`) when no module has that name.
    public func unregister(named name: String) async throws(HiveError) {
        try await takingTurn("unregister(named: \"\(name)\")", event: .teardown) { () throws(HiveError) in
            guard let entry = state.withLock({ $0.entry(named: name) }) else {
                throw HiveError(.unknownModule, module: name, "no module named \(quoted: name) is registered")
            }
            _ = await takeDown([entry])
        }
    }

    func register(_ registration: ModuleRegistration, type: String?, settingUp: Bool = true) async throws(HiveError) {
        try await takingTurn("register(\"\(registration.descriptor.name)\")", event: .setup) { () throws(HiveError) in
            try await mount(registration, type: type, settingUp: settingUp)
        }
    }

    /// Adds a module and, in a live hive, brings it to the hive's phase (unless not
    /// `settingUp`: then it is active at once). Caller holds the gate.
    private func mount(_ registration: ModuleRegistration, type: String?, settingUp: Bool) async throws(HiveError) {
        let phase = self.phase
        guard phase == .created || phase.isLive else {
            throw HiveError(
                .refusedEvent, module: registration.descriptor.name, event: .setup,
                "cannot register a module in phase '\(phase)'")
        }
        let entry = try add(registration, type: type)
        guard settingUp else {
            state.withLock { $0.setLifecycle(.active, of: entry) }
            return
        }
        guard phase.isLive else { return }
        if let failure = await bringUp([entry]) {
            _ = await takeDown([entry])
            throw failure
        }
        _ = await catchUp([entry], to: phase)
    }

    /// Drops modules from the order, with their services, routes, actions and stored
    /// descriptors, in one pass over each; they receive nothing more.
    func forget(_ entries: [ModuleEntry]) {
        let names = Set(entries.map(\.name))
        setMinimumBudget(state.withLock { state in
            state.remove(names)
            return state.minimumBudget
        })
        forgetCalls(ownedBy: names)
        socketTable.forget(ownedBy: entries.map(\.name))
    }
}
