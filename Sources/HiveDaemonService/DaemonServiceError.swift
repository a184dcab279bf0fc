import HiveDaemon

/// A ``DaemonService`` that did not stop cleanly; `exitCode` is the status hived would
/// exit with, for an application that wants the same contract.
public struct DaemonServiceError: Error, CustomStringConvertible {
    /// What went wrong, as an exit status: never ``/HiveDaemon/DaemonExitCode/success``.
    /// `Int32(exitCode)` (or `exitCode.rawValue`) is the integer to exit with: 69, 70, 72,
    /// 75 or 78.
    public let exitCode: DaemonExitCode

    /// `daemon stopped with exit status N`.
    public var description: String { "daemon stopped with exit status \(exitCode.rawValue) (\(exitCode))" }
}
