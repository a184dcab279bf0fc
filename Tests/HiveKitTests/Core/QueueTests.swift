import HiveKit
import TestSupport
import Testing

@Suite struct QueueTests {
    @Test func eventsAreDeliveredInArrivalOrderNeverInterleaved() async throws {
        let recorder = Recorder()
        let release = Latch()
        let log: @Sendable (ModuleContext) async throws -> Void = { context in
            recorder.append("\(context.moduleName) begin \(context.event)")
            if context.customEventName == "slow" { _ = await release.wait(timeout: .seconds(20)) }
            try await Task.sleep(for: .milliseconds(2))
            recorder.append("\(context.moduleName) end \(context.event)")
        }
        let hive = try makeHive([
            (ScriptedModule(Recorder(), [.custom: .run(log), .memoryWarning: .run(log)]),
                ModuleDescriptor(name: "sync")),
            (ScriptedModule(Recorder(), [.custom: .run(log), .memoryWarning: .run(log)]),
                ModuleDescriptor(name: "async", isAsync: true)),
        ])
        try await hive.start()
        try await hive.send(.ready)
        let slow = Task { try await hive.send(.custom(name: "slow")) }
        #expect(await eventually(wakingOn: recorder) { recorder.all.contains("sync begin custom:slow") })
        var queued: [Task<DeliveryReport, any Error>] = []
        let events: [HiveEvent] = [
            .custom(name: "e1"), .memoryWarning, .custom(name: "e2"), .custom(name: "e3"), .custom(name: "e4"),
        ]
        for (index, event) in events.enumerated() {
            queued.append(Task { try await hive.send(event) })
            #expect(await eventually { hive.pendingCalls == index + 1 })
        }
        #expect(!recorder.all.contains { $0.contains("e1") }, "nothing overtakes the event in progress")
        release.open()
        _ = try await slow.value
        for task in queued { _ = try await task.value }
        // Group the log by event: each event's records are contiguous, in arrival order.
        var eventOrder: [String] = []
        for item in recorder.all {
            let event = String(item.split(separator: " ").last!)
            if eventOrder.last != event {
                #expect(!eventOrder.contains(event), "event \(event) interleaved with another")
                eventOrder.append(event)
            }
        }
        #expect(eventOrder == ["custom:slow"] + events.map(\.description))
        #expect(recorder.all.count == 2 * 2 * 6)
        await hive.stop()
    }

    @Test func aReloadArrivingDuringInitWaitsForIt() async throws {
        let recorder = Recorder()
        let release = Latch()
        let hive = try makeHive([
            (ScriptedModule(recorder, [
                .`init`: .run { _ in
                    _ = await release.wait(timeout: .seconds(20))
                    recorder.append("init done")
                },
            ]), ModuleDescriptor(name: "m")),
        ])
        let start = Task { try await hive.start() }
        #expect(await eventually(wakingOn: recorder) { recorder.all.contains("m.init") })
        #expect(hive.phase == .starting)
        let reload = Task { try await hive.send(.reload) }
        #expect(await eventually { hive.pendingCalls == 1 })
        let register = Task {
            try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "late"))
        }
        #expect(await eventually { hive.pendingCalls == 2 })
        release.open()
        try await start.value
        _ = try await reload.value  // not refused: it ran once init was over
        try await register.value
        #expect(recorder.all == ["m.setup", "m.init", "init done", "m.reload", "late.setup", "late.init"])
        await hive.stop()
    }

    @Test func aRegistrationQueuesBehindTheEventInProgress() async throws {
        let recorder = Recorder()
        let release = Latch()
        let hive = try makeHive([
            (ScriptedModule(recorder, [
                .custom: .run { _ in _ = await release.wait(timeout: .seconds(20)) },
            ]), ModuleDescriptor(name: "m")),
        ])
        try await hive.start()
        let event = Task { try await hive.send(.custom(name: "x")) }
        #expect(await eventually(wakingOn: recorder) { recorder.all.contains("m.custom") })
        let register = Task { try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "late")) }
        #expect(await eventually { hive.pendingCalls == 1 })
        let unregister = Task { try await hive.unregister(named: "m") }
        #expect(await eventually { hive.pendingCalls == 2 })
        #expect(!recorder.all.contains("late.setup"))
        release.open()
        let report = try await event.value
        #expect(report.delivered == 1, "late joined after the event")
        try await register.value
        try await unregister.value
        #expect(Array(recorder.all.suffix(5)) == ["late.setup", "late.init", "m.terminate", "m.teardown", "m.unmount"])
        await hive.stop()
    }

    /// A caller that gives up (its task is cancelled) while its event waits leaves the queue
    /// at once; the event is never delivered, and the calls behind it keep their order.
    @Test func aCancelledWaitingCallLeavesTheQueueAndIsNeverDelivered() async throws {
        let recorder = Recorder()
        let release = Latch()
        let hive = try makeHive([
            (ScriptedModule(recorder, [
                .custom: .run { context in
                    if context.customEventName == "slow" { _ = await release.wait(timeout: .seconds(20)) }
                },
            ]), ModuleDescriptor(name: "m")),
        ])
        try await hive.start()
        let slow = Task { try await hive.send(.custom(name: "slow")) }
        #expect(await eventually(wakingOn: recorder) { recorder.all.contains("m.custom") })
        var queued: [Task<DeliveryReport, any Error>] = []
        for name in ["a", "b", "c"] {
            queued.append(Task { try await hive.send(.custom(name: name)) })
            let count = queued.count
            #expect(await eventually { hive.pendingCalls == count })
        }
        queued[1].cancel()
        let error = await #expect(throws: HiveError.self) { _ = try await queued[1].value }
        #expect(error?.code == .cancelled)
        #expect(error?.event == .custom(name: "b"))
        #expect(hive.pendingCalls == 2, "it left the queue before the event in progress ended")
        release.open()
        _ = try await slow.value
        _ = try await queued[0].value
        _ = try await queued[2].value
        #expect(recorder.all == ["m.setup", "m.init", "m.custom", "m.custom", "m.custom"])
        #expect(hive.profile.stats(module: "m", event: .custom)?.calls == 3, "custom:b never ran")
        await hive.stop()
    }

    /// An already cancelled task gets its turn refused at once.
    @Test func aCallFromACancelledTaskIsNotDelivered() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "m"))])
        try await hive.start()
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await hive.send(.custom(name: "late"))
        }
        let error = await #expect(throws: HiveError.self) { _ = try await call.value }
        #expect(error?.code == .cancelled)
        #expect(recorder.modules(for: "custom").isEmpty)
        #expect(hive.phase == .initialized)
        await hive.stop()
    }
}
