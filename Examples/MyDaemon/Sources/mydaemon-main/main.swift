import AppLogging
import HiveDaemon
import HiveKit
import Logging
import MyDaemonModules

// `mydaemon-main [CONFIG]`: mydaemon with a `main` of its own instead of DaemonProgram.
// The application bootstraps swift-log first and the daemon logs through it;
// HiveDaemon.main blocks the daemon's signals and reads them on this thread. Without
// CONFIG it reads the identity's file, /etc/mydaemon/mydaemon.yaml.
LoggingSystem.bootstrap { label in AppLogHandler(label: label) }

let identity = DaemonIdentity(name: "mydaemon", version: "1.2.0")

let modules: ModuleCatalog = {
    var catalog = ModuleCatalog()
    catalog.register("store", settings: ["greeting"]) { descriptor in try StoreModule(settings: descriptor.settings) }
    catalog.register("report") { _ in ReportModule() }
    return catalog
}()

HiveDaemon.main(DaemonOptions(
    identity: identity,
    configurationPath: CommandLine.arguments.dropFirst().first ?? identity.configurationPath,
    catalog: modules))
