import HiveDaemon
import HiveKit
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// A HiveKit daemon run as a swift-service-lifecycle `Service`, inside an application's
/// `ServiceGroup`, with everything ``/HiveDaemon/HiveDaemon`` gives: `sd_notify`
/// (`READY=1` once its modules finished `init`), `SIGHUP` reload, `SIGTSTP`/`SIGCONT`,
/// mapped signals, the watchdog and the stop budget.
///
/// **Who owns which signal.** The group owns `SIGTERM` and `SIGINT`: give them to it as
/// `gracefulShutdownSignals` (otherwise they keep their default action and end the
/// process at once); its graceful shutdown becomes the daemon's ordered stop (`STOPPING=1`,
/// `terminate`, `teardown`, within `budgets.stop`). The daemon owns every other signal it
/// handles (`SIGHUP`, `SIGTSTP`, `SIGCONT`, those mapped in `signals:`), read through
/// Dispatch signal sources from the moment ``run()`` starts, as the group reads its own.
///
/// ```swift
/// @main
/// enum App {
///     static func main() async throws {
///         let daemon = DaemonService.parseOrExit(MyDaemon.self)  // MyDaemon: DaemonProgram
///         let group = ServiceGroup(configuration: .init(
///             services: [.init(service: daemon), .init(service: other)],
///             gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
///         try await group.run()
///     }
/// }
/// ```
///
/// ``parseOrExit(_:)`` gives the executable a ``/HiveDaemon/DaemonProgram``'s command line
/// (`check-config`, `ctl`, `--help`, `--version`) and makes the service for `run`;
/// ``init(_:)`` takes options made otherwise.
///
/// `run()` returns after a clean stop and throws ``DaemonServiceError`` (with the exit
/// status hived would use) otherwise. A cancelled `run()` stops the daemon in order too.
public struct DaemonService: Service, CustomStringConvertible {
    /// What the daemon runs.
    public let options: DaemonOptions

    /// A daemon of `options`; it runs when the group calls ``run()``. It logs through the
    /// application's swift-log handler and never bootstraps swift-log.
    public init(_ options: DaemonOptions) {
        self.options = options
    }

    /// Runs the daemon until the group's graceful shutdown (or cancellation) and its
    /// ordered stop end.
    ///
    /// - Throws: ``DaemonServiceError`` when the daemon did not stop cleanly (invalid
    ///   configuration, a module that failed to start, the stop budget ran out…).
    public func run() async throws {
        SignalReader.startDispatchSources(leaving: [SIGTERM, SIGINT])
        let daemon = HiveDaemon(options)
        let status = await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await daemon.run()
            } onGracefulShutdown: {
                daemon.requestStop("graceful shutdown of the service group")
            }
        } onCancel: {
            daemon.requestStop("service cancelled")
        }
        daemon.finish()
        guard status == .success else { throw DaemonServiceError(exitCode: status) }
    }

    /// The daemon's name, as the group's log shows it.
    public var description: String { options.identity.name }
}
