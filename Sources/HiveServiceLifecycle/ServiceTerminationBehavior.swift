/// What follows when a ``ServiceModule``'s service returns or throws before the module
/// received `terminate`, after it was reported by module: modelled on ServiceGroup's
/// `successTerminationBehavior` and `failureTerminationBehavior`.
public enum ServiceTerminationBehavior: Sendable, Hashable, CustomStringConvertible {
    /// Log it and go on without the service.
    case ignore
    /// Ask the host (``/HiveKit/HiveHost``) to stop the hive in order, as a clean stop
    /// (a daemon exits 0).
    case stopDaemon
    /// Ask the host to stop the hive in order, as a failure (a daemon exits 69,
    /// `EX_UNAVAILABLE`, which systemd's `Restart=on-failure` restarts).
    case failDaemon

    /// `ignore`, `stopDaemon` or `failDaemon`.
    public var description: String {
        switch self {
        case .ignore: "ignore"
        case .stopDaemon: "stopDaemon"
        case .failDaemon: "failDaemon"
        }
    }
}
