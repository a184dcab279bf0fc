import HiveKit
import Synchronization
import TestSupport
import Testing

/// Observers of delivery (what the control socket's Subscribe streams), module
/// statuses, delivered-event counts and stall counts.
@Suite struct ObservationTests {
    final class Watcher: HiveObserver {
        let calls = Mutex<[String]>([])
        let events = Mutex<[String]>([])

        func handlerFinished(_ call: ObservedCall) {
            calls.withLock { $0.append("\(call.module).\(call.event) \(call.outcome)") }
        }

        func eventDelivered(_ event: ObservedEvent) {
            events.withLock { $0.append("\(event.event) \(event.phase) \(event.delivered)/\(event.failures)") }
        }
    }

    @Test func anObserverSeesEveryHandlerOutcomeAndEachEventOnceDelivered() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder), ModuleDescriptor(name: "a")),
            (ScriptedModule(recorder, [.custom: .fail("no")]), ModuleDescriptor(name: "b")),
        ])
        let watcher = Watcher()
        hive.addObserver(watcher)
        try await hive.start()
        try await hive.send(.ready)
        try await hive.send(.custom(name: "x", params: [:]))
        hive.removeObserver(watcher)
        try await hive.send(.background)
        #expect(watcher.calls.withLock { $0 } == [
            "a.setup succeeded", "b.setup succeeded", "a.init succeeded", "b.init succeeded",
            "a.ready succeeded", "b.ready succeeded", "a.custom:x succeeded", "b.custom:x failed",
        ])
        #expect(watcher.events.withLock { $0 } == [
            "setup starting 2/0", "init starting 2/0", "ready running 2/0", "custom:x running 2/1",
        ])
        await hive.stop()
    }

    @Test func statusesDeliveredEventsAndStallsAreCounted() async throws {
        let recorder = Recorder()
        let holder = Mutex<Hive?>(nil)
        // The hook runs past its 40 ms budget until the stall monitor has counted it.
        let stalled = ScriptedModule(recorder, [.custom: .run { _ in
            let counted = await eventually(timeout: .seconds(20)) {
                holder.withLock { $0 }?.profile.stats(module: "slow", event: .custom)?.stalls == 1
            }
            if !counted { throw TestFailure("the stall monitor never counted the stall") }
        }])
        let hive = try Hive(HiveConfiguration(defaultBudget: .milliseconds(40)), modules: [
            (stalled, ModuleDescriptor(name: "slow")),
        ])
        holder.withLock { $0 = hive }
        #expect(hive.moduleStatuses.map(\.state) == [.registered])
        try await hive.start()
        try await hive.send(.ready)
        let report = try await hive.send(.custom(name: "x", params: [:]))
        #expect(report.failures.isEmpty)
        let status = try #require(hive.moduleStatuses.first)
        #expect(status.name == "slow" && status.type == nil && status.state == .active && status.level == .normal)
        #expect(hive.deliveredEvents == [.setup: 1, .`init`: 1, .ready: 1, .custom: 1])
        #expect(hive.profile.stats(module: "slow", event: .custom)?.stalls == 1, "counted once, however long it runs")
        await hive.stop()
        #expect(hive.moduleStatuses.map(\.state) == [.tornDown])
    }
}
