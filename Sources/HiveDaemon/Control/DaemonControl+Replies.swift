#if canImport(Glibc)
import Glibc
#endif
import HiveKit

extension DaemonControl {
    /// `GetStatus`.
    func status() -> DaemonAPI.Status {
        let modules = hive.moduleStatuses.map { module in
            DaemonAPI.Module(
                name: module.name, type: module.type, level: module.level.description,
                priority: module.priority, isAsync: module.isAsync, state: module.state.rawValue)
        }
        let stalls = hive.stalledHandlers().map { stall in
            DaemonAPI.Stall(
                module: stall.module, event: stall.event.name,
                elapsedMicroseconds: stall.elapsed.microseconds, budgetMicroseconds: stall.budget.microseconds)
        }
        let uptime = Duration.nanoseconds(Int64(clamping: MonotonicClock.nanoseconds() &- daemon.startedAt))
        return DaemonAPI.Status(
            name: daemon.options.identity.name, version: daemon.options.identity.version, pid: Int(getpid()),
            phase: hive.phase.rawValue, uptimeMicroseconds: uptime.microseconds, modules: modules, stalled: stalls)
    }

    /// `GetProfile`.
    func profile() -> DaemonAPI.Profile {
        let profile = hive.profile
        func timing(_ call: HandlerTiming) -> DaemonAPI.Timing {
            DaemonAPI.Timing(
                module: call.module, event: call.event.name, calls: 1,
                totalMicroseconds: call.duration.microseconds, longestMicroseconds: call.duration.microseconds,
                failures: call.outcome == .succeeded ? 0 : 1)
        }
        let startup = profile.startup.phases.flatMap { $0.sync + $0.async }.map(timing)
        let blame = profile.blame.map { entry in
            DaemonAPI.Timing(
                module: entry.module, event: entry.event.name, calls: entry.stats.calls,
                totalMicroseconds: entry.stats.total.microseconds, longestMicroseconds: entry.stats.longest.microseconds,
                failures: entry.stats.failures + entry.stats.abandoned)
        }
        return DaemonAPI.Profile(
            startup: startup, blame: blame, criticalPath: profile.startup.criticalPath.map(timing))
    }

    /// `ListRoutes`.
    func routes() -> DaemonAPI.Routes {
        DaemonAPI.Routes(routes: hive.router.definitions.map {
            DaemonAPI.Route(pattern: $0.pattern, priority: $0.priority, owner: $0.owner, scheme: $0.scheme, exported: $0.exported)
        })
    }

    /// `ListActions`.
    func actions() -> DaemonAPI.Actions {
        DaemonAPI.Actions(actions: hive.mediator.definitions.map {
            DaemonAPI.Action(
                target: $0.target, action: $0.name, owner: $0.owner, acceptsURLs: $0.acceptsURLs, exported: $0.exported)
        })
    }

    /// `ListServices`.
    func services() -> DaemonAPI.Services {
        DaemonAPI.Services(services: hive.services.definitions.map {
            DaemonAPI.Service(
                service: $0.service, name: $0.name, lifetime: $0.lifetime.rawValue, owner: $0.owner,
                implementation: $0.implementation)
        })
    }
}
