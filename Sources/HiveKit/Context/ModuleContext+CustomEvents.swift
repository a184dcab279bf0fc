extension ModuleContext {
    /// Sets (or, with `nil`, removes) this module's handler of the custom event `name`
    /// (BeeHive's `registerCustomEvent:withModuleInstance:andSelectorStr:`): when
    /// `custom(name)` is delivered, the module's handler for that name runs instead of its
    /// ``Module/custom(_:)`` hook, in the module's place in the order and under its budget,
    /// with the event's context. Other custom events still go to the hook. The handlers go
    /// with the module.
    ///
    /// ```swift
    /// func setup(_ context: ModuleContext) async throws {
    ///     context.setCustomEventHandler("rotate") { context in try rotateLogs(context.customParameters) }
    /// }
    /// ```
    public func setCustomEventHandler(_ name: String, _ handler: (@Sendable (ModuleContext) async throws -> Void)?) {
        module.customHandlers.withLock { handlers in
            handlers[name] = handler
            module.hasCustomHandlers.store(!handlers.isEmpty, ordering: .relaxed)
        }
    }
}
