import AppLogging
import HiveDaemon
import HiveKit
import Logging
import MyDaemonModules

// `mydaemon-main [CONFIG]`: mydaemon with a `main` of its own instead of DaemonProgram.
// The application bootstraps swift-log first and the daemon logs through it;
// HiveDaemon.main blocks the daemon's signals and reads them on this thread.
LoggingSystem.bootstrap { label in AppLogHandler(label: label) }

let modules: ModuleCatalog = {
    var catalog = ModuleCatalog()
    catalog.register("store") { descriptor in try StoreModule(settings: descriptor.settings) }
    catalog.register("report") { _ in ReportModule() }
    return catalog
}()

HiveDaemon.main(DaemonOptions(
    identity: DaemonIdentity(name: "mydaemon", version: "1.2.0"),
    configurationPath: CommandLine.arguments.dropFirst().first ?? "/etc/mydaemon/mydaemon.yaml",
    catalog: modules))
