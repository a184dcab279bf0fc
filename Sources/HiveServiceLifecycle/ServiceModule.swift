import HiveKit
import Logging
import ServiceLifecycle

/// A swift-service-lifecycle `Service` (a Hummingbird server, a gRPC server, a
/// PostgresNIO client…) run as a module.
///
/// - **Start.** At `init` (default) or `ready` (``ServiceStartPoint``) the service's
///   `run()` starts on a task of its own. Given a ``ServiceReadiness``, the hook waits
///   until the service calls ``ServiceReadiness/markRunning()`` (e.g. from Hummingbird's
///   `onServerRunning`), so `READY=1` follows a listening server; a service that returns
///   or throws first fails the start, naming the module.
/// - **Stop.** `terminate` triggers the service's graceful shutdown and returns; `teardown`
///   waits for `run()` to return, within the module's budget: past four fifths of it the
///   service is cancelled, and past nine tenths the hook gives up, saying so (the hive
///   would abandon it at the budget anyway). A teardown without a `terminate` (a start
///   rolled back) shuts the service down first.
/// - **Early end.** A `run()` that returns or throws before `terminate` is logged as an
///   error by module, then ``ServiceTerminationBehavior`` decides: go on, or ask the
///   ``/HiveKit/HiveHost`` (the daemon) for an ordered stop, clean or failed (exit 69).
///   The defaults fail the daemon, as ServiceGroup's do: a server that stops serving is
///   a daemon that no longer works.
/// - **Reload.** The service keeps running as it was made; changed settings are logged
///   as taking effect at the next start. Settings that must change live belong in a
///   service of the registry that the running service reads (see `Examples/KeyValue`).
///
/// A catalog's factory makes the service and the module in one call:
///
/// ```swift
/// catalog.register("http", settings: ["port"]) { descriptor in
///     let port = try descriptor.settings.int("port") ?? 8080
///     let readiness = ServiceReadiness()
///     let app = Application(router: makeRouter(),
///                           configuration: .init(address: .hostname("127.0.0.1", port: port)),
///                           onServerRunning: { _ in readiness.markRunning() })
///     return ServiceModule(app, readiness: readiness)
/// }
/// ```
///
/// A service that needs the module's context (the hive's services, routes or actions, the
/// module's logger) is made when the module starts it, by
/// ``init(readiness:startsAt:onReturn:onError:service:)``.
public struct ServiceModule: Module {
    /// Makes the service when the module starts it, with the module's context.
    public typealias Factory = @Sendable (_ context: ModuleContext) async throws -> any Service

    /// When `run()` starts.
    public let startPoint: ServiceStartPoint
    /// What follows a `run()` that returns before `terminate`.
    public let onReturn: ServiceTerminationBehavior
    /// What follows a `run()` that throws before `terminate`.
    public let onError: ServiceTerminationBehavior
    /// Whether the start hook waits for ``ServiceReadiness/markRunning()``.
    let waitsUntilRunning: Bool
    let makeService: Factory
    let runner: ServiceRunner

    /// A module that runs `service`.
    ///
    /// - Parameters:
    ///   - service: the service; its `run()` starts at `startPoint`.
    ///   - readiness: the readiness the service marks once it runs, for the start hook to
    ///     wait for; `nil` (the default): the hook returns once `run()` has started. Give a
    ///     readiness to one module only.
    ///   - startPoint: `init` (default) or `ready`.
    ///   - onReturn: after an early return; ``ServiceTerminationBehavior/failDaemon`` by default.
    ///   - onError: after an early throw; ``ServiceTerminationBehavior/failDaemon`` by default.
    public init(
        _ service: any Service,
        readiness: ServiceReadiness? = nil,
        startsAt startPoint: ServiceStartPoint = .initialize,
        onReturn: ServiceTerminationBehavior = .failDaemon,
        onError: ServiceTerminationBehavior = .failDaemon
    ) {
        self.init(readiness: readiness, startsAt: startPoint, onReturn: onReturn, onError: onError) { _ in service }
    }

    /// A module that makes its service when it starts it, with the module's context (its
    /// settings and logger, the hive's services, routes and actions) at hand.
    ///
    /// - Parameters:
    ///   - readiness: as in ``init(_:readiness:startsAt:onReturn:onError:)``.
    ///   - startPoint: `init` (default) or `ready`.
    ///   - onReturn: after an early return; ``ServiceTerminationBehavior/failDaemon`` by default.
    ///   - onError: after an early throw; ``ServiceTerminationBehavior/failDaemon`` by default.
    ///   - makeService: makes the service; a throw fails the start hook.
    public init(
        readiness: ServiceReadiness? = nil,
        startsAt startPoint: ServiceStartPoint = .initialize,
        onReturn: ServiceTerminationBehavior = .failDaemon,
        onError: ServiceTerminationBehavior = .failDaemon,
        service makeService: @escaping Factory
    ) {
        self.startPoint = startPoint
        self.onReturn = onReturn
        self.onError = onError
        self.waitsUntilRunning = readiness != nil
        self.runner = readiness?.runner ?? ServiceRunner()
        self.makeService = makeService
    }

    /// Starts the service when ``startPoint`` is `init`.
    public func initialize(_ context: ModuleContext) async throws {
        if startPoint == .initialize { try await start(context) }
    }

    /// Starts the service when ``startPoint`` is `ready`.
    public func ready(_ context: ModuleContext) async throws {
        if startPoint == .ready { try await start(context) }
    }

    /// Leaves the service as it was made; says so when the module's settings changed.
    public func reload(_ context: ModuleContext) async throws {
        guard let madeWith = runner.settings, madeWith != context.settings else { return }
        context.logger.notice("the service keeps running as it was made: changed settings take effect at the next start")
    }

    /// Triggers the service's graceful shutdown and returns.
    public func terminate(_ context: ModuleContext) async throws {
        await runner.terminate()
    }

    /// Waits for `run()` to return within the module's budget, cancelling it past four
    /// fifths of it.
    public func teardown(_ context: ModuleContext) async throws {
        guard runner.hasStarted else { return }
        await runner.terminate()
        let budget = context.hive.descriptor(named: context.moduleName)?.budget ?? context.hive.defaultBudget
        if await !runner.waitForEnd(timeout: budget * 4 / 5) {
            context.logger.warning(
                "service still running \((budget * 4 / 5).shortDescription) after its graceful shutdown began: cancelling it")
            runner.cancel()
            guard await runner.waitForEnd(timeout: budget / 10) else {
                context.logger.error("service did not end when cancelled; leaving it behind")
                return
            }
        }
        if case .threw(let error) = runner.outcome, !runner.endedEarly {
            context.logger.error("service failed while shutting down: \(error)")
        } else if !runner.endedEarly {
            context.logger.info("service stopped")
        }
    }
}
