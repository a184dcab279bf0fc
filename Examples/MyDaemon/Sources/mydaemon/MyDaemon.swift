import HiveDaemon
import HiveKit
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
}
