import HiveKit
import Synchronization
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
        let hive = try Hive(modules: [
            ModuleRegistration(name: "a", module: ScriptedModule(recorder)),
            ModuleRegistration(name: "b", module: ScriptedModule(recorder, [.custom: .fail("no")])),
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
        let hive = try Hive(HiveConfiguration(defaultBudget: .milliseconds(40)), modules: [
            ModuleRegistration(name: "slow", module: ScriptedModule(recorder, [.custom: .sleep(.milliseconds(400))])),
        ])
        #expect(hive.moduleStatuses.map(\.state) == [.registered])
        try await hive.start()
        try await hive.send(.ready)
        try await hive.send(.custom(name: "x", params: [:]))
        let status = try #require(hive.moduleStatuses.first)
        #expect(status.name == "slow" && status.type == nil && status.state == .active && status.level == .normal)
        #expect(hive.deliveredEvents == [.setup: 1, .`init`: 1, .ready: 1, .custom: 1])
        #expect(hive.profile.stats(module: "slow", event: .custom)?.stalls == 1, "the monitor saw it past its budget once")
        await hive.stop()
        #expect(hive.moduleStatuses.map(\.state) == [.tornDown])
    }
}
