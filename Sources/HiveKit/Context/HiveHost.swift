/// What runs a hive (a daemon, an application), as its modules see it.
///
/// The host registers itself in the hive's service registry
/// (`hive.services.register(HiveHost.self) { … }`); a module that can no longer do its
/// work resolves it to ask for a stop (`context.services.resolve(HiveHost.self)`). A hive
/// that nobody hosts has none registered.
public protocol HiveHost: Sendable {
    /// Asks the host to stop the hive in order (`terminate`, then `teardown`), as a stop
    /// from outside would. Returns at once: the stop runs after the caller's hook.
    ///
    /// - Parameters:
    ///   - module: the module asking.
    ///   - reason: what happened, for the host's log and status.
    ///   - failure: whether the host should end with a failure (hived exits 69).
    func requestStop(module: String, reason: String, failure: Bool)
}
