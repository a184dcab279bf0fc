import HiveDaemon

/// A ``DaemonService`` that did not stop cleanly; `exitCode` is the status hived would
/// exit with, for an application that wants the same contract.
public struct DaemonServiceError: Error, CustomStringConvertible {
    /// What went wrong, as an exit status.
    public let exitCode: DaemonExitCode

    /// `daemon stopped with exit status N`.
    public var description: String { "daemon stopped with exit status \(exitCode.rawValue) (\(exitCode))" }
}
