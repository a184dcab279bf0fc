import HiveKit
import HiveServiceLifecycle
import ServiceLifecycle
import Synchronization
import Testing

// The one-call form of HiveServiceLifecycle.docc/HostingAServiceAsAModule.md, compiled and
// run (DocumentationCodeTests checks the article's block is this file's text).

/// A service that calls `onRunning` once it runs, as a server's "listening" callback does,
/// and runs until its graceful shutdown.
struct Worker: Service {
    let name: String
    let onRunning: @Sendable () -> Void

    func run() async throws {
        onRunning()
        try? await gracefulShutdown()
    }
}

/// The article's catalog.
func workerCatalog() -> ModuleCatalog {
    var catalog = ModuleCatalog()
    catalog.register("worker", settings: ["name"]) { descriptor in
        let name = try descriptor.settings.string("name") ?? "worker"
        let readiness = ServiceReadiness()
        let worker = Worker(name: name, onRunning: { readiness.markRunning() })
        return ServiceModule(worker, readiness: readiness)
    }
    return catalog
}

@Suite struct HostingAServiceArticleTests {
    /// The catalog's factory makes the service and the module in one call; the hive runs it
    /// from `init` and shuts it down at the stop.
    @Test func aServiceMadeInTheFactoryRunsAsAModule() async throws {
        let modules = try workerCatalog().instantiate([ModuleDescriptor(name: "w", type: "worker")])
        let hive = try Hive(HiveConfiguration(defaultBudget: .seconds(30)), modules: modules)
        try await hive.start()
        #expect(hive.phase == .initialized)
        let failures = await hive.stop()
        #expect(failures.isEmpty)
    }
}
