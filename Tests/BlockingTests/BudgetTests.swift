import Glibc
import HiveKit
import Synchronization
import TestSupport
import Testing

/// The budget test whose cancellation handler blocks a thread of the cooperative pool for
/// as long as the stop takes: in this process, never beside the timing-sensitive tests.
@Suite(.runsIn(.blocking)) struct BudgetTests {
    @Test func aCancellationHandlerThatBlocksCannotWedgeTheBudgetsAfterIt() async throws {
        // `wedged`'s cancellation handler blocks its thread until the test opens the gate
        // (at most 20 s): the budgets of the hooks after it must still run out on time.
        let gate = Mutex(false)
        let recorder = Recorder()
        let hive = try makeHive([
            (ScriptedModule(recorder, [
                .teardown: .sleep(.seconds(60)),
            ]), ModuleDescriptor(name: "after", priority: 1, budget: .milliseconds(500))),
            (ScriptedModule(recorder, [
                .terminate: .run { _ in
                    // The body ignores cancellation, so no pool thread waits on the task's
                    // status while the handler blocks.
                    await withTaskCancellationHandler {
                        await waitIgnoringCancellation(for: .seconds(30))
                    } onCancel: {
                        let start = ContinuousClock.now
                        while !gate.withLock({ $0 }), ContinuousClock.now - start < .seconds(20) { usleep(1_000) }
                    }
                },
            ]), ModuleDescriptor(name: "wedged", budget: .milliseconds(500))),
        ])
        try await hive.start()
        let started = ContinuousClock.now
        let failures = await hive.stop()
        let elapsed = ContinuousClock.now - started
        gate.withLock { $0 = true }
        #expect(Set(failures.map(\.module)) == ["wedged", "after"])
        #expect(elapsed < .seconds(10), "every budget ran out although a cancellation handler blocks: \(elapsed)")
        #expect(recorder.modules(for: "teardown") == ["wedged", "after"])
    }

}
