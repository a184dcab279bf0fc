import HiveDaemon
import HiveKit
import Logging
import MyDaemonModules

@main
struct MyDaemon: DaemonProgram {
    static let identity = DaemonIdentity(name: "mydaemon", version: "1.2.0")

    static let modules: ModuleCatalog = {
        var catalog = ModuleCatalog()
        catalog.register("store", settings: ["greeting"]) { descriptor in try StoreModule(settings: descriptor.settings) }
        catalog.register("report") { _ in ReportModule() }
        return catalog
    }()

    static func main() {
        LoggingSystem.bootstrap(StreamLogHandler.standardOutput)   // the program's own handler
        DaemonCommand<Self>.main()                                  // run, check-config, --help…
    }
}
