import HiveKit
import Synchronization

/// Offers the ``ResponsePolicy`` service from its settings, and applies new ones at reload,
/// so a changed `node` shows in the next response.
///
/// ## Settings
/// - `node`: the `X-KV-Node` header of every response (default: `kvd`).
public struct ResponsesModule: Module {
    private let policy = LivePolicy()

    /// Checks the settings when the configuration is loaded.
    public init(settings: Settings) throws(HiveError) {
        _ = try settings.string("node")
    }

    /// Offers the policy of the settings.
    public func setup(_ context: ModuleContext) async throws {
        try apply(context.settings)
        let policy = self.policy
        try context.services.register(ResponsePolicy.self) { policy }
    }

    /// Applies the new settings to the next response.
    public func reload(_ context: ModuleContext) async throws {
        try apply(context.settings)
        context.logger.info("responses now carry X-KV-Node: \(policy.node)")
    }

    private func apply(_ settings: Settings) throws {
        policy.node = try settings.string("node") ?? "kvd"
    }
}

/// The policy, changed in place at reload; read by every request.
final class LivePolicy: ResponsePolicy {
    private let current = Mutex("kvd")

    var node: String {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
