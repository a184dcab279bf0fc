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

/// mydaemon's identity and module types, with the module type `ticker`: a ``Ticker`` run
/// from `ready`, with its settings `ticks` (it ends on its own after that many, which
/// fails the daemon: exit 69) and `drain` (how long it takes to stop).
enum MyDaemonWithTicker: DaemonProgram {
    static let identity = DaemonIdentity(name: "mydaemon", version: "1.2.0")

    static let modules: ModuleCatalog = {
        var catalog = ModuleCatalog()
        catalog.register("store", settings: ["greeting"]) { descriptor in try StoreModule(settings: descriptor.settings) }
        catalog.register("report") { _ in ReportModule() }
        catalog.register("ticker", settings: ["ticks", "drain"]) { descriptor in
            let settings = descriptor.settings
            let ticker = Ticker(name: "module-ticker", ticks: try settings.int("ticks"), drain: try settings.duration("drain") ?? .zero)
            return ServiceModule(ticker, startsAt: .ready)
        }
        return catalog
    }()
}

/// `mydaemon-group [run] [--config PATH]`: mydaemon's modules as one service of an
/// application's ServiceGroup, beside a service of the application's own, with the
/// application's own logging; `check-config`, `ctl`, `--help` and `--version` as
/// `mydaemon` has them. The group owns SIGTERM and SIGINT; the daemon owns SIGHUP,
/// SIGTSTP, SIGCONT and its mapped signals.
@main
enum MyDaemonInAGroup {
    static func main() async {
        LoggingSystem.bootstrap { label in AppLogHandler(label: label) }  // the application's logging
        let daemon = DaemonService.parseOrExit(MyDaemonWithTicker.self)  // check-config, ctl… exit here
        let logger = Logger(label: "app")
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
