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


@Suite struct StopRequestTests {
    static func options(failure: Bool) -> DaemonOptions {
        var catalog = ModuleCatalog()
        catalog.register("quitter") { _ in Quitter(failure: failure) }
        return DaemonOptions(
            identity: DaemonIdentity(name: "testd", version: "1"),
            embeddedConfiguration: "log: {target: stderr}\nmodules: [{name: q, type: quitter}]",
            catalog: catalog, environment: [:], systemd: SystemdEnvironment())
    }

    @Test func aModuleAsksTheDaemonForAnOrderedStop() async {
        #expect(await HiveDaemon(Self.options(failure: false)).run() == .success)
    }

    @Test func aStopAskedOnAFailureExits69AfterTheOrderedStop() async {
        #expect(await HiveDaemon(Self.options(failure: true)).run() == .serviceUnavailable)
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
        #expect(await daemon.run() == .success)
    }
}

private struct Idle: Module {}
