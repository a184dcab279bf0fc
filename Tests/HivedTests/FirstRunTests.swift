import Foundation
import HiveDaemon
@testable import hived
import Testing

/// What a new user meets first: the documented example configuration runs from a fresh
/// clone, and means what the embedded default means.
@Suite struct FirstRunTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `scripts/run --config config/hived.yaml`: no `/var/lib/hived` needed, the probes
    /// write in `$STATE_DIRECTORY` as under systemd.
    @Test func theExampleConfigurationRunsWithItsFilesInTheStateDirectory() async throws {
        let directory = try TestDirectory()
        let config = Self.packageRoot.appendingPathComponent("config/hived.yaml").path
        let hived = try HivedProcess(["run", "--config", config], in: directory, environment: ["STATE_DIRECTORY": directory.path])
        try await hived.waitForReady()
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0, "\(hived.stderr)")
        #expect(try ProbeFile(path: directory.file("store.events")).events.first == "store.setup")
        #expect(try ProbeFile(path: directory.file("worker.events")).events.last == "worker.teardown")
    }

    @Test func theExampleAndTheEmbeddedDefaultMapSignalsAlike() throws {
        let example = try DaemonConfiguration.load(path: Self.packageRoot.appendingPathComponent("config/hived.yaml").path)
        let embedded = try DaemonConfiguration.parse(EmbeddedConfiguration.yaml)
        #expect(example.signals == embedded.signals)
        #expect(embedded.signals[SIGUSR1] == .custom(name: "stats"))
        #expect(embedded.signals[SIGUSR2] == .custom(name: "rotate"))
    }
}
