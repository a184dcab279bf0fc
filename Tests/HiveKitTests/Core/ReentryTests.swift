import HiveKit
import TestSupport
import Testing

/// A hook that calls into its own hive's queue would wait for the event that waits for the
/// hook. From the hook's own task or from any child task of it (`async let`, task groups)
/// that is refused; a task the hook starts and does not wait for queues its call instead.
@Suite struct ReentryTests {
    /// How a hook reaches its hive: directly, or from a child or unstructured task.
    enum Route: String, CaseIterable, Sendable {
        case asyncLet, taskGroup, discardingGroup, nestedChild
    }

    /// Calls every queued operation of `hive` through `route` and records the error codes.
    static func callBack(_ hive: Hive, via route: Route, into seen: Recorder) async {
        let attempt: @Sendable () async -> Void = {
            do throws(HiveError) { try await hive.send(.memoryWarning) } catch { seen.append("send \(error.code) \(error.module ?? "-")") }
            do throws(HiveError) {
                try await hive.register(ScriptedModule(Recorder()), as: ModuleDescriptor(name: "child"))
            } catch { seen.append("register \(error.code)") }
            do throws(HiveError) { try await hive.unregister(named: "other") } catch { seen.append("unregister \(error.code)") }
            do throws(HiveError) { _ = try await hive.reload(to: [], catalog: ModuleCatalog()) } catch {
                seen.append("reload \(error.code)")
            }
            seen.append("stop \(await hive.stop().map(\.code))")
        }
        switch route {
        case .asyncLet:
            async let done: Void = attempt()
            await done
        case .taskGroup:
            await withTaskGroup(of: Void.self) { group in group.addTask { await attempt() } }
        case .discardingGroup:
            await withDiscardingTaskGroup { group in group.addTask { await attempt() } }
        case .nestedChild:
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    async let done: Void = attempt()
                    await done
                }
            }
        }
    }

    @Test(arguments: Route.allCases, [false, true])
    func aChildTaskOfAHookIsRefusedNotDeadlocked(route: Route, isAsync: Bool) async throws {
        let seen = Recorder()
        let hive = try makeHive([
            (ScriptedModule(Recorder()), ModuleDescriptor(name: "other")),
            (ScriptedModule(Recorder(), [
                .custom: .run { context in await Self.callBack(context.hive, via: route, into: seen) },
            ]), ModuleDescriptor(name: "parent", isAsync: isAsync)),
        ])
        try await hive.start()
        let delivery = Task { try await hive.send(.custom(name: "call-back")) }
        let finished = await eventually(timeout: .seconds(20), wakingOn: seen) { seen.all.count >= 5 }
        #expect(finished, "a child task of the hook deadlocked on its hive: \(seen.all)")
        guard finished else { return }
        _ = try await delivery.value
        #expect(seen.all == [
            "send refusedEvent parent", "register refusedEvent", "unregister refusedEvent", "reload refusedEvent",
            "stop [refusedEvent]",
        ])
        #expect(hive.moduleNames == ["other", "parent"], "nothing changed")
        #expect(hive.phase == .initialized)
        await hive.stop()
    }

    /// A budgeted hook (terminate, teardown, unmount) runs on a task of its own; its child
    /// tasks are refused too.
    @Test func aChildTaskOfATeardownHookIsRefused() async throws {
        let seen = Recorder()
        let hive = try makeHive([
            (ScriptedModule(Recorder()), ModuleDescriptor(name: "other")),
            (ScriptedModule(Recorder(), [
                .teardown: .run { context in
                    let hive = context.hive
                    async let outcome: String = {
                        do throws(HiveError) {
                            try await hive.unregister(named: "other")
                            return "unregistered"
                        } catch { return "\(error.code) \(error.module ?? "-")" }
                    }()
                    seen.append(await outcome)
                },
            ]), ModuleDescriptor(name: "parent")),
        ])
        try await hive.start()
        let failures = await hive.stop()
        #expect(failures.isEmpty)
        #expect(seen.all == ["refusedEvent parent"])
    }

    /// `Task {}` inherits task-local values, `Task.detached` does not; neither is a child
    /// the hook waits for, so both queue behind the event and then run.
    @Test(arguments: [false, true])
    func aTaskTheHookStartsQueuesBehindTheEvent(detached: Bool) async throws {
        let seen = Recorder()
        let hive = try makeHive([
            (ScriptedModule(Recorder(), [
                .custom: .run { context in
                    let hive = context.hive
                    let register: @Sendable () async -> Void = {
                        do throws(HiveError) {
                            try await hive.register(ScriptedModule(seen), as: ModuleDescriptor(name: "late"))
                            seen.append("registered")
                        } catch { seen.append("register \(error.code)") }
                    }
                    if detached { Task.detached(operation: register) } else { Task(operation: register) }
                    // Return only once the call waits for its turn: it was made during the event.
                    #expect(await eventually { hive.pendingCalls == 1 })
                    seen.append("hook returns")
                },
            ]), ModuleDescriptor(name: "parent")),
        ])
        try await hive.start()
        try await hive.send(.custom(name: "spawn"))
        #expect(await eventually(wakingOn: seen) { seen.all.contains("registered") })
        #expect(seen.all == ["hook returns", "late.setup", "late.init", "registered"])
        #expect(hive.activeModuleNames == ["parent", "late"])
        await hive.stop()
    }

    /// A hook may call into another hive, and a hive's hook may call into this one.
    @Test func aHookMayCallAnotherHive() async throws {
        let other = try makeHive([(ScriptedModule(Recorder()), ModuleDescriptor(name: "x"))])
        try await other.start()
        let seen = Recorder()
        let hive = try makeHive([
            (ScriptedModule(Recorder(), [
                .custom: .run { _ in
                    async let report = other.send(.memoryWarning)
                    seen.append("delivered \(try await report.delivered)")
                },
            ]), ModuleDescriptor(name: "caller")),
        ])
        try await hive.start()
        try await hive.send(.custom(name: "go"))
        #expect(seen.all == ["delivered 1"])
        await hive.stop()
        await other.stop()
    }
}
