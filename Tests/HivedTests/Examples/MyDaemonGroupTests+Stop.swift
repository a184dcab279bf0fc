import Foundation
import TestSupport
import Testing

/// mydaemon-group's stops that are not clean: the stop budget, and a service module whose
/// service ends on its own.
extension MyDaemonGroupTests {
    @Test func aModuleStuckPastTheStopBudgetEndsTheProcessWith75NamingIt() async throws {
        let directory = try TestDirectory()
        // The ticker takes 30 s to drain; its teardown would wait 4 s (four fifths of the
        // 5 s event budget) before cancelling it. The stop budget is 1 s.
        let config = try directory.write("my.yaml", """
            budgets: {event: 5s, stop: 1s}
            modules:
              - {name: store, type: store, level: basic, settings: {greeting: hi}}
              - {name: ticker, type: ticker, settings: {drain: 30s}}
            """)
        let daemon = try HivedProcess(["--config", config], in: directory, executable: Self.executable)
        let notify = try #require(daemon.notify)
        try await daemon.waitForReady()
        try await ExampleCommand.waitFor(daemon, "APP module-ticker info: ticker running")
        let (sent, exited) = try await daemon.watchExit(after: SIGTERM, timeout: .seconds(15))
        #expect(try await daemon.exitStatus() == 75, "\(daemon.stderr)")
        // The budget starts when the group hands the stop to the daemon (after the group's
        // own ticker stopped): STOPPING=1 goes out then, on the kernel's clock.
        let stopping = try #require(notify.datagrams.first { $0.text.hasPrefix("STOPPING=1") }, "\(notify.messages)")
        let report = try #require(notify.datagrams.last { $0.text.contains("exceeded") }, "\(notify.messages)")
        // The deadline is set after the SIGTERM was sent and before STOPPING=1 goes out
        // (which the notify writer may send a little later): not before the budget from
        // the SIGTERM, within it and 100 ms from STOPPING=1.
        #expect(report.received - sent >= .seconds(1), "not before the budget: \(report.received - sent)")
        #expect(
            exited - stopping.received <= .seconds(1) + StopBudgetTests.pastBudget,
            "budget + 100 ms: \(exited - stopping.received)")
        #expect(exited - sent <= .seconds(2), "from SIGTERM: \(exited - sent)")
        #expect(report.text.hasPrefix("STATUS=stop budget of 1.0s exceeded while stopping: module 'ticker'"), "\(report.text)")
        #expect(report.text.contains("in teardown"), "\(report.text)")
        #expect(daemon.stderr.contains("stop budget of 1.0s exceeded while stopping: module 'ticker'"), "\(daemon.stderr)")
    }

    @Test func aServiceThatEndsOnItsOwnStopsTheDaemonInOrderWith69() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("my.yaml", """
            modules:
              - {name: store, type: store, level: basic, settings: {greeting: hi}}
              - {name: ticker, type: ticker, settings: {ticks: 3}}
            """)
        let daemon = try HivedProcess(["--config", config], in: directory, executable: Self.executable)
        try await daemon.waitForReady()
        #expect(try await daemon.exitStatus() == 69, "\(daemon.stderr)")
        let log = daemon.stderr
        let failure = "module 'ticker': service returned before terminate"
        #expect(daemon.notify?.stateMessages.contains("STATUS=stopping: \(failure)") == true, "\(daemon.notify?.messages ?? [])")
        #expect(daemon.notify?.stateMessages.contains { $0.hasPrefix("STOPPING=1") } == true)
        #expect(log.contains("APP mydaemon error: service returned before terminate; asking the host to stop (failDaemon) module=ticker"), "\(log)")
        #expect(log.contains("APP mydaemon error: stopping: \(failure)"), "\(log)")
        let store = try #require(log.range(of: "APP mydaemon info: store closed event=teardown module=store"), "an ordered stop: \(log)")
        let group = try #require(log.range(of: "APP app error: daemon stopped with exit status 69"), "\(log)")
        #expect(store.lowerBound < group.lowerBound)
    }
}
