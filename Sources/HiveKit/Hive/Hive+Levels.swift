import Synchronization

extension Hive {
    /// Calls the hook `kind` (with `event` in the context) on the modules among `modules`
    /// that `takesPart` selects, level by level: every module of a level returns (or is
    /// abandoned) before any module of the next level is called. Within a level, each
    /// async module's hook starts in a child task of its own and runs concurrently with
    /// the rest, while the sync modules are called one after another in order. BeeHive has
    /// two levels (basic, normal); this holds for any number, since `modules` are in order
    /// and each level is a run of them.
    ///
    /// The one path of every event, start phase and reload: inlined into each caller, so
    /// that its closures are too and a sync module's call costs what a loop written for
    /// the caller would.
    ///
    /// A level's async calls run in a discarding task group and record their own results:
    /// the delivering task wakes once, at the barrier, instead of once per result (a third
    /// of the cost per async module, measured in `Benchmarks/`). Immediate child tasks
    /// (`addImmediateTask`) would halve it again, but they run a hook on the delivering
    /// thread until its first suspension: a hook that computes or blocks without
    /// suspending would hold up the sync modules and the other async hooks of its level.
    ///
    /// - Parameters:
    ///   - modules: modules in start order.
    ///   - hasAsync: whether any of them may be async (`false` skips the task group).
    ///   - stopAtFailure: after a hook fails, call no further sync module of its level and
    ///     no later level (start-up, modules joining).
    ///   - proposed: settings the contexts carry instead of the modules' own, by module
    ///     name: a reload's, for `validateReload`.
    ///   - finished: told of each call, on this task: a sync module's as it ends, a
    ///     level's async modules' at its barrier, in the order they ended. It takes the
    ///     call's result over (`consuming`): handing it on costs no copy and no outlined
    ///     destroy per module.
    /// - Returns: how many modules were called.
    @inline(__always)
    func fanOut(
        _ event: HiveEvent, hook kind: EventKind, to modules: [HostedModule], hasAsync: Bool,
        stopAtFailure: Bool = false, proposed: [String: Settings]? = nil,
        where takesPart: (HostedModule) -> Bool,
        finished: (HostedModule, consuming HookCall) -> Void
    ) async -> Int {
        currentEvent.set(kind)
        let abandoning = kind.abandonsStalledHandlers
        var called = 0
        if !hasAsync {
            for module in modules where takesPart(module) {
                called += 1
                let result = await call(module, event, hook: kind, abandoning: abandoning, settings: proposed?[module.name])
                let stops = stopAtFailure && result.failure != nil
                finished(module, result)
                if stops { break }
            }
            return called
        }
        var first = modules.startIndex
        var failed = false
        while first < modules.endIndex && !failed {
            let level = modules[first].level
            var end = first + 1
            while end < modules.endIndex && modules[end].level == level { end += 1 }
            let asyncCalls = AsyncCalls()
            // The level's barrier: the group returns once its async calls have.
            await withDiscardingTaskGroup { group in
                for index in first..<end where modules[index].isAsync && takesPart(modules[index]) {
                    called += 1
                    let module = modules[index]
                    let settings = proposed?[module.name]
                    group.addTask {
                        asyncCalls.append(
                            index, await self.call(module, event, hook: kind, abandoning: abandoning, settings: settings))
                    }
                }
                for index in first..<end where !modules[index].isAsync && takesPart(modules[index]) {
                    called += 1
                    let module = modules[index]
                    let result = await call(module, event, hook: kind, abandoning: abandoning, settings: proposed?[module.name])
                    let stops = stopAtFailure && result.failure != nil
                    finished(module, result)
                    if stops {
                        failed = true
                        break
                    }
                }
            }
            for (index, result) in asyncCalls.taken() {
                if stopAtFailure && result.failure != nil { failed = true }
                finished(modules[index], result)
            }
            first = end
        }
        return called
    }

    /// Calls the hook `kind` on the modules among `modules` that `takesPart` selects, in
    /// exactly the reverse of their order and one at a time, abandoning a hook past its
    /// budget so the ones after it still run: `teardown` and `unmount`. Since levels are
    /// runs of the order, every module of a level returns before the level before it
    /// starts, as in ``fanOut(_:hook:to:hasAsync:stopAtFailure:proposed:where:finished:)``.
    ///
    /// - Returns: how many modules were called.
    func fanOutInReverse(
        _ event: HiveEvent, hook kind: EventKind, to modules: [HostedModule],
        where takesPart: (HostedModule) -> Bool,
        finished: (HostedModule, HookCall) -> Void
    ) async -> Int {
        currentEvent.set(kind)
        var called = 0
        for module in modules.reversed() where takesPart(module) {
            called += 1
            finished(module, await call(module, event, hook: kind, abandoning: true))
        }
        return called
    }

    /// Tears down every module that was set up, in reverse order, one at a time; then
    /// releases singleton services in reverse order of creation and closes the services,
    /// routes and actions: a stop, or a failed start's rollback.
    func tearDownAll() async -> (delivered: Int, failures: [HiveError]) {
        var failures: [HiveError] = []
        let delivered = await fanOutInReverse(
            .teardown, hook: .teardown, to: state.withLock { $0.modules },
            where: { $0.lifecycle == .active || $0.lifecycle == .setUp }
        ) { module, call in
            module.lifecycle = .tornDown
            if let failure = call.failure { failures.append(failure) }
        }
        closeCalls()
        return (delivered, failures)
    }
}

/// The async calls of one level, as their child tasks end (in any order, from any thread).
private final class AsyncCalls: Sendable {
    private let calls = Mutex<[(index: Int, call: HookCall)]>([])

    func append(_ index: Int, _ call: HookCall) {
        calls.withLock { $0.append((index, call)) }
    }

    /// The calls so far, in the order they ended.
    func taken() -> [(index: Int, call: HookCall)] {
        calls.withLock { $0 }
    }
}
