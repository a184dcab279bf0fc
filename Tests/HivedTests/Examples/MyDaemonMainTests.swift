import Foundation
import TestSupport
import Testing

/// `Examples/MyDaemon`'s `mydaemon-main`: a `main` of its own that bootstraps the
/// application's swift-log handler, then calls `HiveDaemon.main` without blocking any
/// signal itself.
@Suite(.enabled(
    if: ExampleBinary.isAvailable(product: "mydaemon-main"),
    "Examples/MyDaemon is not built (swift build --package-path Examples/MyDaemon; scripts/test builds it)"))
struct MyDaemonMainTests {
    static let executable = ExampleBinary.url(product: "mydaemon-main")

    static func configuration(greeting: String) -> String {
        """
        signals: {SIGUSR1: "custom:stats"}
        modules:
          - {name: store, type: store, level: basic, settings: {greeting: \(greeting)}}
          - {name: report, type: report}
        """
    }

    @Test func aPreBootstrappedLoggerIsUsedAndSighupReloads() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("my.yaml", Self.configuration(greeting: "hi"))
        let daemon = try HivedProcess([config], in: directory, executable: Self.executable)
        try await daemon.waitForReady()
        // The application's handler writes the daemon's lines: its bootstrap was kept, no trap.
        try await ExampleCommand.waitFor(daemon, "APP mydaemon info: store holds 1 key; greeting 'hi' event=ready module=report")

        // HiveDaemon.main blocked SIGHUP itself: it reloads instead of ending the process (129).
        try directory.write("my.yaml", Self.configuration(greeting: "hello again"))
        let before = daemon.notify?.messages.count ?? 0
        daemon.signal(SIGHUP)
        let reloading = try await daemon.notify!.waitFor(after: before, "RELOADING=1") { $0.hasPrefix("RELOADING=1") }
        try await daemon.waitForReady(after: reloading)
        daemon.signal(SIGUSR1)
        try await ExampleCommand.waitFor(daemon, "store holds 1 key; greeting 'hello again' event=custom module=report")

        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("APP mydaemon info: store closed event=teardown module=store"), "\(daemon.stderr)")
        #expect(daemon.notify?.stateMessages.contains { $0.hasPrefix("STOPPING=1") } == true)
    }

    @Test func withoutAFileItReadsTheIdentitysDefaultPath() async throws {
        let result = try await ExampleCommand.run(Self.executable, [])
        #expect(result.status == 78)
        #expect(result.stderr.hasPrefix(
            "mydaemon: /etc/mydaemon/mydaemon.yaml: cannot read configuration file: No such file or directory"),
            "\(result.stderr)")
    }
}
