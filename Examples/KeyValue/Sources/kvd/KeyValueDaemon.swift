import HiveDaemon
import HiveKit
import KeyValueModules

/// kvd: an HTTP key-value daemon (see README.md).
@main
struct KeyValueDaemon: DaemonProgram {
    static let identity = DaemonIdentity(name: "kvd", version: "1.0.0")
    static let abstract = "An HTTP key-value store: Hummingbird on HiveKit."

    static let modules: ModuleCatalog = {
        var catalog = ModuleCatalog()
        catalog.register("store", settings: ["snapshot"]) { descriptor in try StoreModule(settings: descriptor.settings) }
        catalog.register("responses", settings: ["node"]) { descriptor in try ResponsesModule(settings: descriptor.settings) }
        catalog.register("http", settings: ["host", "port"]) { descriptor in try HTTPModule.make(settings: descriptor.settings) }
        return catalog
    }()
}
