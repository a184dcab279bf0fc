/// The event at which a ``ServiceModule`` starts its service's `run()`.
public enum ServiceStartPoint: Sendable, Hashable {
    /// At `init`: the service runs before the hive reports ready (`READY=1`), so a
    /// service that fails to start fails the start.
    case initialize
    /// At `ready`: the service starts once every module finished `init` and the hive
    /// reported ready.
    case ready
}
