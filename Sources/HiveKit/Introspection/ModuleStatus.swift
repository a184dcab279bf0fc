/// What a module shows observers: its place in the order and where it is in its own
/// lifecycle (``Hive/moduleStatuses``). What it declared is its ``ModuleDescriptor``.
public struct ModuleStatus: Sendable, Hashable {
    /// Where a module is in its own lifecycle.
    public enum State: String, Sendable, Hashable, CustomStringConvertible {
        /// Registered; `setup` has not run yet.
        case registered
        /// `setup` returned; `init` has not.
        case setUp
        /// `init` returned: the module receives events.
        case active
        /// Its `setup` or `init` threw: it receives nothing more.
        case failed
        /// `teardown` ran.
        case tornDown

        /// The state's name, as the control socket's `GetStatus` reports it (`active`).
        public var description: String { rawValue }
    }

    /// The module's name.
    public let name: String
    /// The catalog type that built it; `nil` for a module registered in code.
    public let type: String?
    /// Its level.
    public let level: ModuleLevel
    /// Its priority within the level.
    public let priority: Int
    /// Whether its hooks run concurrently with other modules'.
    public let isAsync: Bool
    /// Where it is in its lifecycle.
    public let state: State
}

extension HostedModule.Lifecycle {
    var state: ModuleStatus.State {
        switch self {
        case .registered: .registered
        case .setUp: .setUp
        case .active: .active
        case .failed: .failed
        case .tornDown: .tornDown
        }
    }
}
