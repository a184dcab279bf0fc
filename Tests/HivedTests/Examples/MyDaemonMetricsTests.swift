import Foundation
import Testing

/// `Examples/MyDaemon`'s `mydaemon-metrics`: the application bootstraps a swift-metrics
/// backend of its own (which logs each update it receives) before the command line runs;
/// the daemon's metrics reach it when the daemon is ready, at each scrape, every 10 s and
/// after the stop, while `ctl metrics` still prints them in the Prometheus text format.
@Suite(.enabled(
    if: ExampleBinary.isAvailable(product: "mydaemon-metrics"),
    "Examples/MyDaemon is not built (swift build --package-path Examples/MyDaemon; scripts/test builds it)"))
struct MyDaemonMetricsTests {
    static let executable = ExampleBinary.url(product: "mydaemon-metrics")

    @Test func theApplicationsOwnBackendReceivesTheDaemonsMetrics() async throws {
        let example = try await ExampleWithControl.start(Self.executable)
        let (socket, daemon) = (example.socket, example.daemon)
        // Once ready, the start-up's figures reach the application's backend.
        try await ExampleCommand.waitFor(daemon, "metric hive_handler_duration_seconds module=store event=init: 1 recorded, last ")
        try await ExampleCommand.waitFor(daemon, "metric hive_events_total event=ready: 1 (+1)")

        // Events delivered since reach it at the next scrape, as they reach hived's registry.
        for _ in 0..<3 {
            let sent = try await ExampleCommand.run(Self.executable, ["ctl", "send", "tick", "--socket", socket])
            #expect(sent.status == 0, "\(sent.stderr)")
        }
        let scrape = try await ExampleCommand.run(Self.executable, ["ctl", "metrics", "--socket", socket])
        #expect(scrape.status == 0, "\(scrape.stderr)")
        #expect(scrape.stdout.contains(#"hive_events_total{event="custom"} 3"#), "\(scrape.stdout)")
        try await ExampleCommand.waitFor(daemon, "metric hive_events_total event=custom: 3 (+3)")
        try await ExampleCommand.waitFor(daemon, "metric hive_handler_duration_seconds module=report event=custom: 3 recorded")

        // The stop's events reach it before the process exits.
        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
        #expect(daemon.stderr.contains("metric hive_events_total event=terminate: 1 (+1)"), "\(daemon.stderr)")
        #expect(daemon.stderr.contains("metric hive_events_total event=teardown: 1 (+1)"), "\(daemon.stderr)")
        #expect(daemon.stderr.contains("metric hive_handler_duration_seconds module=store event=teardown: 1 recorded"))
    }
}
