/// A plug-in that receives the hive's lifecycle events (BeeHive's `BHModuleProtocol`).
///
/// Every hook is `async throws` and has a default no-op, so a module implements only
/// the events it cares about. Hooks are called one event at a time, in the hive's
/// order (see ``ModuleDescriptor``); a sync module's hook is awaited before the next
/// sync module's, an async module's hook runs concurrently with the others.
///
/// - A throw from ``setup(_:)`` or ``initialize(_:)`` aborts start: modules already set
///   up are torn down in reverse order and this module receives nothing more.
/// - A throw from any later hook is logged with module and event; delivery goes on.
/// - Every hook runs under a time budget. Past it the module is reported as stalled;
///   at ``terminate(_:)``, ``teardown(_:)`` and ``unmount(_:)`` it is abandoned.
/// - ``validateReload(_:)`` lets a module refuse new settings before a reload changes
///   anything: a throw aborts the whole reload.
public protocol Module: Sendable {
    /// Prepares the module: register services, routes and actions, open nothing slow.
    func setup(_ context: ModuleContext) async throws
    /// Initializes the module; `READY=1` is sent once every module returned from it.
    func initialize(_ context: ModuleContext) async throws
    /// Called once after the hive told its supervisor it is ready.
    func ready(_ context: ModuleContext) async throws
    /// The daemon is suspended (`SIGTSTP`, system sleep): release what you can.
    func background(_ context: ModuleContext) async throws
    /// The daemon resumed after ``background(_:)``.
    func foreground(_ context: ModuleContext) async throws
    /// Asked before a reload changes anything, when this module is kept and its settings
    /// changed: `context.settings` holds the new settings. Throw to refuse them (a port
    /// already taken, a path that does not exist): the reload is then aborted and every
    /// module keeps running as it was. Check, do not apply: ``reload(_:)`` follows only
    /// if every module accepted.
    func validateReload(_ context: ModuleContext) async throws
    /// The configuration was reloaded; `context.settings` holds the new settings.
    func reload(_ context: ModuleContext) async throws
    /// The system is short of memory: drop caches.
    func memoryWarning(_ context: ModuleContext) async throws
    /// A named custom event; `context.event` carries its name and parameters.
    func custom(_ context: ModuleContext) async throws
    /// The daemon is stopping; called in priority order before any ``teardown(_:)``.
    func terminate(_ context: ModuleContext) async throws
    /// Release everything; called in exactly the reverse of the start order.
    func teardown(_ context: ModuleContext) async throws
    /// The module is being removed from a running hive, after its ``teardown(_:)``.
    func unmount(_ context: ModuleContext) async throws
}

/// Every hook does nothing unless a module implements it.
extension Module {
    /// Does nothing: a module that registers nothing needs no `setup`.
    public func setup(_ context: ModuleContext) async throws {}
    /// Does nothing: a module with nothing to start needs no `init`.
    public func initialize(_ context: ModuleContext) async throws {}
    /// Does nothing unless the module implements it.
    public func ready(_ context: ModuleContext) async throws {}
    /// Does nothing unless the module implements it.
    public func background(_ context: ModuleContext) async throws {}
    /// Does nothing unless the module implements it.
    public func foreground(_ context: ModuleContext) async throws {}
    /// Accepts every change of settings: a module that cannot refuse one needs no `validateReload`.
    public func validateReload(_ context: ModuleContext) async throws {}
    /// Does nothing: the new settings are in the context of the module's next hooks.
    public func reload(_ context: ModuleContext) async throws {}
    /// Does nothing unless the module implements it.
    public func memoryWarning(_ context: ModuleContext) async throws {}
    /// Does nothing unless the module implements it (or a custom event handler takes the event).
    public func custom(_ context: ModuleContext) async throws {}
    /// Does nothing unless the module implements it.
    public func terminate(_ context: ModuleContext) async throws {}
    /// Does nothing unless the module implements it.
    public func teardown(_ context: ModuleContext) async throws {}
    /// Does nothing unless the module implements it.
    public func unmount(_ context: ModuleContext) async throws {}
}
