import CoreMetrics
import HiveDaemon
import HiveKit
import MyDaemonModules

/// mydaemon with a swift-metrics backend of the application's own, bootstrapped before the
/// command line runs: hived's metrics (handler durations, failures, events, reloads, the
/// control socket's counters) reach it, and `mydaemon-metrics ctl metrics` still prints
/// them in the Prometheus text format.
@main
struct MyDaemonWithMetrics: DaemonProgram {
    static let identity = DaemonIdentity(name: "mydaemon", version: "1.2.0")

    static let modules: ModuleCatalog = {
        var catalog = ModuleCatalog()
        catalog.register("store", settings: ["greeting"]) { descriptor in try StoreModule(settings: descriptor.settings) }
        catalog.register("report") { _ in ReportModule() }
        return catalog
    }()

    static func main() {
        MetricsSystem.bootstrap(LoggedMetrics())   // the application's
        DaemonCommand<Self>.main()                 // run, check-config, ctl, --help…
    }
}
