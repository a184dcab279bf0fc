@testable import HiveDaemon
import HiveKit
import Synchronization
import Testing

/// Records the directories its context reports at `ready`, then asks its host to stop.
private final class DirectoryReporter: Module {
    let seen = Mutex<[String?]>([])

    func ready(_ context: ModuleContext) async throws {
        seen.withLock { $0 = [context.stateDirectory, context.runtimeDirectory] }
        try context.services.resolve(HiveHost.self).requestStop(module: context.moduleName, reason: "seen", failure: false)
    }
}

extension ProcessEnvironmentSuite {
    @Suite struct ModuleDirectoriesTests {
        /// Runs a daemon with `systemd` until its module has looked, and returns what it saw.
        static func directories(seenUnder systemd: SystemdEnvironment) async -> [String?] {
            let reporter = DirectoryReporter()
            var catalog = ModuleCatalog()
            catalog.register("directories") { _ in reporter }
            let daemon = HiveDaemon(DaemonOptions(
                identity: DaemonIdentity(name: "testd", version: "1"),
                embeddedConfiguration: "log: {target: stderr}\ncontrol: {enabled: false}\nmodules: [{name: d, type: directories}]",
                catalog: catalog, environment: [:], systemd: systemd))
            #expect(await StopRequestTests.run(daemon) == .success)
            return reporter.seen.withLock { $0 }
        }

        /// A module's context reports the first directory of the captured `STATE_DIRECTORY`
        /// and `RUNTIME_DIRECTORY` (systemd lists one per `StateDirectory=` entry).
        @Test func aModuleSeesTheFirstStateAndRuntimeDirectory() async {
            let seen = await Self.directories(seenUnder: SystemdEnvironment(
                runtimeDirectory: "/run/testd:/run/testd-extra", stateDirectory: "/var/lib/testd:/var/lib/testd-cache"))
            #expect(seen == ["/var/lib/testd", "/run/testd"])
        }

        /// Outside systemd (neither variable set, or set empty) both are nil.
        @Test func withoutSystemdBothAreNil() async {
            #expect(await Self.directories(seenUnder: SystemdEnvironment()) == [nil, nil])
            #expect(await Self.directories(seenUnder: SystemdEnvironment(runtimeDirectory: "", stateDirectory: "")) == [nil, nil])
        }
    }
}
