@testable import HiveDaemon
import HiveKit
import Testing

/// A module that asks its host to stop once it is ready.
private struct Quitter: Module {
    let failure: Bool

    func ready(_ context: ModuleContext) async throws {
        let host = try context.services.resolve(HiveHost.self)
        host.requestStop(module: context.moduleName, reason: "done", failure: failure)
    }
}

// A daemon's run() sets the shared log level and the signal reader's handler, both
// process-global: these suites run inside ProcessEnvironmentSuite, one test at a time.
extension ProcessEnvironmentSuite {
    @Suite struct StopRequestTests {
        static func options(failure: Bool) -> DaemonOptions {
            var catalog = ModuleCatalog()
            catalog.register("quitter") { _ in Quitter(failure: failure) }
            return DaemonOptions(
                identity: DaemonIdentity(name: "testd", version: "1"),
                embeddedConfiguration: "log: {target: stderr}\nmodules: [{name: q, type: quitter}]",
                catalog: catalog, environment: [:], systemd: SystemdEnvironment())
        }

        /// Runs `daemon` to its end, then stands its stop guard down, as a `DaemonService`
        /// does: the guard would end this test process when the stop budget runs out.
        static func run(_ daemon: HiveDaemon) async -> DaemonExitCode {
            let status = await daemon.run()
            daemon.finish()
            return status
        }

        @Test func aModuleAsksTheDaemonForAnOrderedStop() async {
            #expect(await Self.run(HiveDaemon(Self.options(failure: false))) == .success)
        }

        @Test func aStopAskedOnAFailureExits69AfterTheOrderedStop() async {
            #expect(await Self.run(HiveDaemon(Self.options(failure: true))) == .serviceUnavailable)
            #expect(DaemonExitCode.serviceUnavailable.rawValue == 69)
        }

        @Test func aStopRequestedBeforeTheStartFollowsIt() async {
            var catalog = ModuleCatalog()
            catalog.register("idle") { _ in Idle() }
            let daemon = HiveDaemon(DaemonOptions(
                identity: DaemonIdentity(name: "testd", version: "1"),
                embeddedConfiguration: "log: {target: stderr}\nmodules: [{name: i, type: idle}]",
                catalog: catalog, environment: [:], systemd: SystemdEnvironment()))
            daemon.requestStop("graceful shutdown")
            #expect(await Self.run(daemon) == .success)
        }
    }

    @Suite struct FinishedDaemonTests {
        /// A daemon that returned and finished leaves the process alone past its stop budget
        /// (this test process would end with status 75 otherwise). The budget leaves the
        /// trivial stop room on a loaded machine: the guard must not fire before `finish()`.
        @Test func aFinishedDaemonsStopGuardStandsDown() async throws {
            var catalog = ModuleCatalog()
            catalog.register("quitter") { _ in Quitter(failure: false) }
            let daemon = HiveDaemon(DaemonOptions(
                identity: DaemonIdentity(name: "testd", version: "1"),
                embeddedConfiguration: "log: {target: stderr}\nbudgets: {stop: 5s}\nmodules: [{name: q, type: quitter}]",
                catalog: catalog, environment: [:], systemd: SystemdEnvironment()))
            #expect(await StopRequestTests.run(daemon) == .success)
            try await Task.sleep(for: .milliseconds(5_500))  // past the 5 s budget: still here
        }
    }
}

private struct Idle: Module {}
