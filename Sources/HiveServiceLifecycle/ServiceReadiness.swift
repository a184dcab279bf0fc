/// Tells a ``ServiceModule`` that its service is running, e.g. from Hummingbird's
/// `onServerRunning`.
///
/// Make one for each module, give it to the service and to the module
/// (`ServiceModule(service, readiness: readiness)`): the module's start hook (`init` or
/// `ready`) then waits until the service calls ``markRunning()``, so `READY=1` follows a
/// server that listens; a service that returns or throws first fails the start. A module
/// made without one starts its service and returns at once.
public struct ServiceReadiness: Sendable {
    /// The runner of the module this readiness is given to: the module runs its service
    /// with it, so marking it is what the start hook waits for.
    let runner = ServiceRunner()

    /// A readiness for one ``ServiceModule``, not yet marked.
    public init() {}

    /// Marks the service as running; later calls change nothing. Safe from any thread.
    public func markRunning() {
        runner.markRunning()
    }
}
