/// Tells a ``ServiceModule`` that waits for it (`waitsUntilRunning: true`) that its
/// service is running, e.g. from Hummingbird's `onServerRunning`.
///
/// Until then the module's start hook (`init` or `ready`) waits, so `READY=1` follows a
/// server that listens; a service that returns or throws first fails the start.
public struct ServiceReadiness: Sendable {
    let runner: ServiceRunner

    /// Marks the service as running; later calls change nothing. Safe from any thread.
    public func markRunning() {
        runner.markRunning()
    }
}
