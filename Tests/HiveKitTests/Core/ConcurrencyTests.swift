import HiveKit
import TestSupport
import Testing

@Suite struct ConcurrencyTests {
    /// Each async module waits, on every event, until the other has started the same
    /// event: only possible when they really run at the same time.
    static func rendezvous(_ recorder: Recorder, me: String, other: String) -> ScriptedModule {
        let body: @Sendable (ModuleContext) async throws -> Void = { context in
            let key = "\(context.event.kind)"
            let peerStarted = await eventually(timeout: .seconds(10), wakingOn: recorder) {
                recorder.all.contains("\(other).\(key)")
            }
            if !peerStarted { throw TestFailure("\(me) never saw \(other) start \(key)") }
        }
        return ScriptedModule(recorder, [.setup: .run(body), .`init`: .run(body), .custom: .run(body)])
    }

    @Test func asyncModulesOverlapInTime() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (Self.rendezvous(recorder, me: "a", other: "b"), ModuleDescriptor(name: "a", isAsync: true)),
            (Self.rendezvous(recorder, me: "b", other: "a"), ModuleDescriptor(name: "b", isAsync: true)),
        ])
        try await hive.start()  // would throw if a and b ran one after the other
        let report = try await hive.send(.custom(name: "together"))
        #expect(report.failures.isEmpty)
        #expect(report.delivered == 2)
        await hive.stop()
    }

    @Test func asyncModuleOverlapsTheSyncChain() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (Self.rendezvous(recorder, me: "sync", other: "async"), ModuleDescriptor(name: "sync", priority: 10)),
            (Self.rendezvous(recorder, me: "async", other: "sync"), ModuleDescriptor(name: "async", isAsync: true)),
        ])
        try await hive.start()
        let report = try await hive.send(.custom(name: "together"))
        #expect(report.failures.isEmpty)
        await hive.stop()
    }

    @Test func syncModulesNeverOverlap() async throws {
        let recorder = Recorder()
        let modules = (0..<8).map { index in
            (ScriptedModule(recorder, tracksOverlap: true), ModuleDescriptor(name: "s\(index)"))
        }
        let hive = try makeHive(modules)
        try await hive.start()
        try await hive.send(.ready)
        try await hive.send(.custom(name: "x"))
        await hive.stop()
        #expect(recorder.all.count == 8 * 6)
        #expect(recorder.maxInFlight == 1)
    }

    @Test func syncModulesNeverOverlapEvenWithAsyncOnesPresent() async throws {
        // Only the sync ones count themselves; the async one runs alongside them.
        let recorder = Recorder()
        let other = Recorder()
        var modules = (0..<6).map { index in
            (ScriptedModule(recorder, tracksOverlap: true), ModuleDescriptor(name: "s\(index)"))
        }
        modules.append((ScriptedModule(other, [.custom: .sleep(.milliseconds(30))]),
            ModuleDescriptor(name: "async", isAsync: true)))
        let hive = try makeHive(modules)
        try await hive.start()
        try await hive.send(.custom(name: "x"))
        await hive.stop()
        #expect(recorder.maxInFlight == 1)
        #expect(recorder.modules(for: "custom") == (0..<6).map { "s\($0)" })
    }

    @Test func eventCompletesOnlyWhenEveryAsyncHandlerReturned() async throws {
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder, [
                .custom: .run { _ in
                    try await Task.sleep(for: .milliseconds(100))
                    recorder.append("slow.done")
                },
            ]), ModuleDescriptor(name: "slow", isAsync: true)),
            (ScriptedModule(recorder), ModuleDescriptor(name: "fast")),
        ])
        try await hive.start()
        try await hive.send(.custom(name: "x"))
        #expect(recorder.all.contains("slow.done"))
        await hive.stop()
    }
}
