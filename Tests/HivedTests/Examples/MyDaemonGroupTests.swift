import Foundation
import TestSupport
import Testing

/// `Examples/MyDaemon`'s `mydaemon-group`: the daemon as one service of an application's
/// ServiceGroup, with the application's own swift-log handler bootstrapped first.
@Suite(.enabled(
    if: ExampleBinary.isAvailable(product: "mydaemon-group"),
    "Examples/MyDaemon is not built (swift build --package-path Examples/MyDaemon; scripts/test builds it)"))
struct MyDaemonGroupTests {
    static let executable = ExampleBinary.url(product: "mydaemon-group")

    static func configuration(greeting: String) -> String {
        """
        signals: {SIGUSR1: "custom:stats"}
        modules:
          - {name: store, type: store, level: basic, settings: {greeting: \(greeting)}}
          - {name: report, type: report}
          - {name: ticker, type: ticker}
        """
    }

    @Test func reloadAndNotificationsWorkInsideAServiceGroup() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("my.yaml", Self.configuration(greeting: "hi"))
        let daemon = try HivedProcess(["--config", config], in: directory, executable: Self.executable)
        try await daemon.waitForReady()
        #expect(daemon.notify?.stateMessages.first { $0.hasPrefix("READY=1") } == "READY=1\nSTATUS=running 3 modules")
        // The application's handler writes the daemon's lines: the bootstrap was kept.
        try await ExampleCommand.waitFor(daemon, "APP mydaemon info: store holds 1 key; greeting 'hi' event=ready module=report")
        try await ExampleCommand.waitFor(daemon, "APP module-ticker info: ticker running")
        try await ExampleCommand.waitFor(daemon, "APP group-ticker info: ticker running")

        try directory.write("my.yaml", Self.configuration(greeting: "hello again"))
        let before = daemon.notify?.messages.count ?? 0
        daemon.signal(SIGHUP)
        let reloading = try await daemon.notify!.waitFor(after: before, "RELOADING=1") { $0.hasPrefix("RELOADING=1") }
        try await daemon.waitForReady(after: reloading)
        daemon.signal(SIGUSR1)
        try await ExampleCommand.waitFor(daemon, "store holds 1 key; greeting 'hello again' event=custom module=report")

        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0, "\(daemon.stderr)")
        let log = daemon.stderr
        #expect(daemon.notify?.stateMessages.contains { $0.hasPrefix("STOPPING=1") } == true)
        for line in [
            "APP module-ticker info: ticker stopped", "APP mydaemon info: store closed event=teardown module=store",
            "APP group-ticker info: ticker stopped", "APP app info: group stopped",
        ] {
            #expect(log.contains(line), "\(line) missing from:\n\(log)")
        }
        let moduleTicker = try #require(log.range(of: "APP module-ticker info: ticker stopped"))
        let store = try #require(log.range(of: "store closed"))
        #expect(moduleTicker.lowerBound < store.lowerBound, "the service module stops before the store's teardown")
    }

    @Test func aDaemonThatCannotStartFailsTheGroupWithItsExitStatus() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("bad.yaml", "modules: [{name: x, type: nope}]")
        let daemon = try HivedProcess(["--config", config], in: directory, executable: Self.executable)
        #expect(try await daemon.exitStatus() == 78)
        #expect(daemon.stderr.contains("mydaemon: bad.yaml:1:") || daemon.stderr.contains("mydaemon: \(config):1:"), "\(daemon.stderr)")
    }
}

/// The README's comparison: the same small daemon with swift-service-lifecycle alone.
@Suite(.enabled(
    if: ExampleBinary.isAvailable(product: "mydaemon-lifecycle"),
    "Examples/MyDaemon is not built (swift build --package-path Examples/MyDaemon; scripts/test builds it)"))
struct LifecycleOnlyTests {
    @Test func reportsOnSigusr1AndClosesTheStoreLast() async throws {
        let directory = try TestDirectory()
        let daemon = try HivedProcess(
            [], in: directory, notify: false,
            executable: ExampleBinary.url(product: "mydaemon-lifecycle"))
        try await ExampleCommand.waitFor(daemon, "store holds 1 keys")
        daemon.signal(SIGUSR1)
        try await ExampleCommand.waitFor(daemon, "store holds 1 keys\n", occurrences: 2)
        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
        #expect(daemon.stderr.hasSuffix("store closed\n"), "\(daemon.stderr)")
    }
}
