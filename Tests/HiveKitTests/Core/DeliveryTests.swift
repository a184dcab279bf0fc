import HiveKit
import TestSupport
import Testing

@Suite struct DeliveryTests {
    @Test func aThrowOnALaterEventIsLoggedReportedAndDeliveryContinues() async throws {
        let recorder = Recorder()
        let logs = LogStore()
        let hive = try makeHive([
            (ScriptedModule(recorder), ModuleDescriptor(name: "a", priority: 30)),
            (ScriptedModule(recorder, [.reload: .fail("bad yaml")]), ModuleDescriptor(name: "bad", priority: 20)),
            (ScriptedModule(recorder, [.reload: .fail("also bad")]),
                ModuleDescriptor(name: "async-bad", isAsync: true)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "c", priority: 10)),
        ], logs: logs)
        try await hive.start()
        try await hive.send(.ready)
        let report = try await hive.send(.reload)
        #expect(report.event == .reload)
        #expect(report.delivered == 4)
        #expect(Set(report.failures.compactMap(\.module)) == ["bad", "async-bad"])
        #expect(report.failures.allSatisfy { $0.code == .handlerFailed && $0.event == .reload })
        #expect(report.failures.first { $0.module == "bad" }?.description.contains("bad yaml") == true)
        #expect(recorder.modules(for: "reload").contains("c"))
        let errors = logs.all.filter { $0.level == .error }
        #expect(errors.contains { $0.metadata["module"] == "bad" && $0.metadata["event"] == "reload" && $0.message.contains("bad yaml") })
        #expect(errors.contains { $0.metadata["module"] == "async-bad" && $0.metadata["event"] == "reload" })
        // The failing module still receives later events: only setup/init failures exclude it.
        #expect(hive.phase == .running)
        try await hive.send(.memoryWarning)
        #expect(Set(recorder.modules(for: "memoryWarning")) == ["a", "bad", "async-bad", "c"])
        await hive.stop()
        #expect(recorder.all.contains("bad.teardown"))
    }

    @Test func customEventsCarryNameAndParameters() async throws {
        let seen = Recorder()
        let module = ScriptedModule(Recorder(), [
            .custom: .run { context in
                seen.append("name=\(context.customEventName ?? "nil")")
                for (key, value) in context.customParameters.sorted(by: { $0.key < $1.key }) {
                    seen.append("\(key)=\(value)")
                }
                seen.append("event=\(context.event)")
            },
            .ready: .run { context in
                seen.append("ready name=\(context.customEventName ?? "nil") params=\(context.customParameters.count)")
            },
        ])
        let hive = try makeHive([(module, ModuleDescriptor(name: "m", isAsync: true))])
        try await hive.start()
        try await hive.send(.ready)
        try await hive.send(.custom(name: "rotate-logs", params: ["path": "/var/log/x", "keep": "7"]))
        #expect(seen.all == [
            "ready name=nil params=0",
            "name=rotate-logs", "keep=7", "path=/var/log/x", "event=custom:rotate-logs",
        ])
        await hive.stop()
    }

    @Test func handlersSeeEveryPhaseTransitionEventOnce() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "m"))])
        try await hive.start()
        #expect(hive.phase == .initialized)
        try await hive.send(.ready)
        #expect(hive.phase == .running)
        try await hive.send(.background)
        #expect(hive.phase == .suspended)
        try await hive.send(.reload)
        #expect(hive.phase == .suspended)
        try await hive.send(.foreground)
        #expect(hive.phase == .running)
        try await hive.send(.terminate)
        #expect(hive.phase == .terminating)
        try await hive.send(.teardown)
        #expect(hive.phase == .stopped)
        #expect(recorder.all == [
            "m.setup", "m.init", "m.ready", "m.background", "m.reload", "m.foreground",
            "m.terminate", "m.teardown",
        ])
    }
}
