/// How long a resolved service instance lives. HiveKit's default is ``singleton``;
/// BeeHive's `createService:` makes a new instance unless the implementation's
/// `+singleton` says otherwise, which is ``transient`` here.
public enum ServiceLifetime: String, Sendable, Hashable, CustomStringConvertible {
    /// One shared instance, created lazily by the first ``ServiceRegistry/resolve(_:name:cached:)``
    /// (exactly once, even when many tasks resolve at the same moment; first creations in
    /// one hive run one at a time) and released after every module's `teardown`, in
    /// reverse order of creation.
    case singleton
    /// A new instance for every resolve; the caller owns it.
    case transient

    /// `singleton` or `transient`, as a configuration file writes it.
    public var description: String { rawValue }
}
