/// The deployment environment a hive runs in, readable by every module.
public enum HiveEnvironment: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case development, testing, staging, production

    public var description: String { rawValue }
}
