import AppLogging
import HiveDaemon
import HiveDaemonService
import HiveKit
import HiveServiceLifecycle
import Logging
import MyDaemonModules
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// `mydaemon-group [CONFIG]`: mydaemon's modules as one service of an application's
/// ServiceGroup, beside a service of the application's own, with the application's own
/// logging. The group owns SIGTERM and SIGINT; the daemon owns SIGHUP, SIGTSTP, SIGCONT
/// and its mapped signals.
///
/// The module type `ticker` runs a ``Ticker`` from `ready`, with its settings `ticks` (it
/// ends on its own after that many, which fails the daemon: exit 69) and `drain` (how
/// long it takes to stop).
@main
enum MyDaemonInAGroup {
    static func main() async {
        LoggingSystem.bootstrap { label in AppLogHandler(label: label) }  // the application's logging
        let logger = Logger(label: "app")

        var modules = ModuleCatalog()
        modules.register("store") { descriptor in try StoreModule(settings: descriptor.settings) }
        modules.register("report") { _ in ReportModule() }
        modules.register("ticker") { descriptor in
            let settings = descriptor.settings
            try settings.requireKeys(in: ["ticks", "drain"])
            let ticker = Ticker(name: "module-ticker", ticks: try settings.int("ticks"), drain: try settings.duration("drain") ?? .zero)
            return ServiceModule(ticker, startsAt: .ready)
        }

        let daemon = DaemonService(DaemonOptions(
            identity: DaemonIdentity(name: "mydaemon", version: "1.2.0"),
            configurationPath: CommandLine.arguments.dropFirst().first,
            catalog: modules))
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: daemon), .init(service: Ticker(name: "group-ticker"))],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        do {
            try await group.run()
            logger.info("group stopped")
        } catch {
            logger.error("\(error)")
            exit((error as? DaemonServiceError)?.exitCode.rawValue ?? 1)
        }
    }
}
