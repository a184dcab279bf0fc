extension Hive {
    /// Registers `module` as `descriptor` declares it (BeeHive's
    /// `registerDynamicModule:shouldTriggerInitEvent:`); a disabled descriptor is ignored.
    ///
    /// ```swift
    /// try await hive.register(Store(), as: ModuleDescriptor(name: "store", level: .basic))
    /// ```
    ///
    /// Before ``start(rollingBack:)`` the module only joins the order. In a started hive it is brought
    /// to the hive's phase at once (queued behind any event being delivered): `setup`,
    /// `init`, then `ready` if the hive already received `ready`, then `background` if the
    /// hive is suspended. If `setup` or `init` throws, the module receives nothing more (as
    /// at start-up), is removed with whatever it registered, and the error is thrown; a
    /// throw from `ready` or `background` is logged, as for any event.
    ///
    /// - Parameters:
    ///   - module: the module.
    ///   - descriptor: its name, place in the order and settings.
    ///   - settingUp: `false` joins the module as it is, without `setup` or `init`
    ///     (BeeHive's `shouldTriggerInitEvent:NO`), nor `ready` or `background` to catch up:
    ///     it receives the events delivered from then on, `terminate`, `teardown` and
    ///     `unmount` included; before ``start(rollingBack:)``, it skips start-up's `setup`
    ///     and `init`.
    /// - Throws: ``HiveError``: `.duplicateModule`, `.refusedEvent` once the hive is
    ///   stopping, or the failure of the module's `setup`/`init`.
    public func register(
        _ module: any Module, as descriptor: ModuleDescriptor, settingUp: Bool = true
    ) async throws(HiveError) {
        guard descriptor.isEnabled else { return }
        try await takingTurn("register(\"\(descriptor.name)\")", event: .setup) { () throws(HiveError) in
            try await mount(module, as: descriptor, settingUp: settingUp)
        }
    }

    /// Builds the module `descriptor` declares through `catalog` and registers it like
    /// ``register(_:as:settingUp:)``; a disabled descriptor is ignored.
    public func register(_ descriptor: ModuleDescriptor, catalog: ModuleCatalog) async throws(HiveError) {
        guard descriptor.isEnabled else { return }
        try await register(try catalog.instantiate(descriptor), as: catalog.declared(descriptor))
    }

    /// Removes a module (BeeHive's `unRegisterDynamicModule:`). In a started hive it
    /// receives `terminate` (if it finished `init`), `teardown` and `unmount` first, each
    /// abandoned past its budget; then whatever it registered (services, routes, actions)
    /// goes with it.
    ///
    /// - Throws: ``HiveError`` (`.unknownModule`) when no module has that name.
    public func unregister(named name: String) async throws(HiveError) {
        try await takingTurn("unregister(named: \"\(name)\")", event: .teardown) { () throws(HiveError) in
            guard let module = state.withLock({ $0.module(named: name) }) else {
                throw HiveError(.unknownModule, module: name, "no module named \(quoted: name) is registered")
            }
            _ = await takeDown([module])
        }
    }

    /// Adds a module and, in a live hive, brings it to the hive's phase (unless not
    /// `settingUp`: then it is active at once). Caller holds the gate.
    private func mount(_ module: any Module, as descriptor: ModuleDescriptor, settingUp: Bool) async throws(HiveError) {
        let phase = self.phase
        guard phase == .created || phase.isLive else {
            throw HiveError(
                .refusedEvent, module: descriptor.name, event: .setup, "cannot register a module in phase '\(phase)'")
        }
        let hosted = try add(module, as: descriptor)
        guard settingUp else {
            hosted.lifecycle = .active
            return
        }
        guard phase.isLive else { return }
        if let failure = await bringUp([hosted]) {
            _ = await takeDown([hosted])
            throw failure
        }
        _ = await catchUp([hosted], to: phase)
    }

    /// Drops modules from the order, with their services, routes, actions and stored
    /// descriptors, in one pass over each; they receive nothing more.
    func forget(_ modules: [HostedModule]) {
        let names = Set(modules.map(\.name))
        setMinimumBudget(state.withLock { state in
            state.remove(names)
            return state.minimumBudget
        })
        forgetCalls(ownedBy: names)
        socketTable.forget(ownedBy: modules.map(\.name))
    }
}
