/// The deployment environment a hive runs in, readable by every module.
public enum HiveEnvironment: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A developer's machine.
    case development
    /// A test run.
    case testing
    /// A rehearsal of production.
    case staging
    /// Serving for real; what a daemon's configuration says unless it says otherwise.
    case production

    /// The environment's name, as a configuration file writes it (`production`).
    public var description: String { rawValue }
}
