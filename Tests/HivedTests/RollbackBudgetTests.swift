import Foundation
import TestSupport
import Testing

/// A failed start's rollback is bounded by the stop budget too: `teardown` hooks that block
/// their threads (as many as the cooperative pool has) cannot keep hived from exiting 70.
@Suite(.serialized) struct RollbackBudgetTests {
    @Test func aRollbackBlockingEveryPoolThreadEndsIn70AtTheStopBudgetNamingThem() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let count = max(2, ProcessInfo.processInfo.activeProcessorCount)
        // The blocked teardowns are abandoned one after another at their budget of a second;
        // the stop budget leaves room for all of them to begin.
        let stopMilliseconds = 1100 * count + 1500
        let blockers = (0..<count).map {
            "  - {name: block\($0), type: probe, level: basic, budget: 1s, settings: {path: \(events), block_on: {teardown: 60s}}}"
        }
        let path = try directory.write("hived.yaml", """
            budgets: {event: 1s, stop: \(stopMilliseconds)ms}
            modules:
            \(blockers.joined(separator: "\n"))
              - {name: failer, type: probe, settings: {path: \(events), fail_on: [init]}}
            """)
        let launched = NotifySocket.realtimeNow()
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        let watch = try ExitWatch(hived.pid)
        let exited = try await watch.time(timeout: .milliseconds(stopMilliseconds) + .seconds(20))
        let status = try await hived.exitStatus()
        #expect(status == 70, "a failed start exits 70 even when its rollback is cut short")

        let datagrams = hived.notify?.datagrams ?? []
        let report = try #require(datagrams.last { $0.text.contains("exceeded") }, "\(hived.notify?.messages ?? [])")
        #expect(report.text.contains("exceeded while rolling back a failed start"), "\(report.text)")
        #expect(report.received - launched >= .milliseconds(stopMilliseconds), "not before the budget")
        #expect(exited - report.received <= StopBudgetTests.reportToExit, "the exit follows the report: \(exited - report.received)")
        for index in 0..<count {
            #expect(report.text.contains("module 'block\(index)'"), "STATUS names every blocked module: \(report.text)")
        }
        #expect(!datagrams.contains { $0.text.contains("STOPPING=1") }, "a failed start is no stop: \(datagrams.map(\.text))")
        let file = try ProbeFile(path: events)
        #expect(Set(file.modules(receiving: "teardown")) == Set((0..<count).map { "block\($0)" }), "every teardown began")
        #expect(hived.stderr.contains("start failed"), "\(hived.stderr)")
    }
}
