import HiveKit
import Logging

extension ServiceModule {
    /// Makes the service and starts `run()`; given a readiness, waits until it runs, and
    /// throws if it ended first.
    func start(_ context: ModuleContext) async throws {
        guard runner.claim() else {
            // The hive names the module and the event.
            throw HiveError(.invalidConfiguration, "its ServiceReadiness was given to another module too: make one for each module")
        }
        let service = try await makeService(context)
        runner.settings = context.settings
        var serviceLogger = context.logger
        serviceLogger[metadataKey: "event"] = nil
        let logger = serviceLogger
        let (hive, name) = (context.hive, context.moduleName)
        let (onReturn, onError) = (self.onReturn, self.onError)
        runner.start(service, name: name, logger: logger, waitsUntilRunning: waitsUntilRunning) { outcome in
            Self.reportEarlyEnd(outcome, module: name, hive: hive, logger: logger, onReturn: onReturn, onError: onError)
        }
        guard waitsUntilRunning else { return }
        guard await runner.waitUntilRunning() else {
            throw ServiceModuleError(module: name, outcome: runner.outcome)
        }
    }

    /// Logs a `run()` that ended before `terminate`, then follows the behaviour for it.
    static func reportEarlyEnd(
        _ outcome: ServiceRunner.Outcome, module: String, hive: Hive, logger: Logger,
        onReturn: ServiceTerminationBehavior, onError: ServiceTerminationBehavior
    ) {
        let (what, behavior): (String, ServiceTerminationBehavior) =
            switch outcome {
            case .returned: ("service returned before terminate", onReturn)
            case .threw(let error): ("service failed: \(error)", onError)
            }
        guard behavior != .ignore else {
            logger.error("\(what); going on without it (\(behavior))")
            return
        }
        logger.error("\(what); asking the host to stop (\(behavior))")
        guard let host = try? hive.services.resolve(HiveHost.self) else {
            logger.error("no HiveHost is registered: nobody to stop")
            return
        }
        host.requestStop(module: module, reason: what, failure: behavior == .failDaemon)
    }
}
