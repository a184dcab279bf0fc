import BenchSupport
import Synchronization

/// Ways to run one event's async hooks, measured on bare closures (no HiveKit around
/// them), to choose the one `Hive+Levels.swift` uses: the cheapest that still lets hooks
/// that suspend run concurrently, keeps each hook's failure its own, and waits for all of
/// them before the next level.
///
/// Two loads: 1,000 hooks that return at once (the cost per call), and 100 hooks that
/// sleep 1 ms (whether they still overlap: about 1 ms in all when they do, 50 ms when
/// two workers take turns).
enum AsyncStrategies {
    /// A hook as a module's would be called: through a protocol, `async throws`.
    protocol Hook: Sendable {
        func run() async throws
    }

    struct Returns: Hook {
        func run() async throws {}
    }

    struct Sleeps: Hook {
        func run() async throws { try await Task.sleep(for: .milliseconds(1)) }
    }

    /// Failures, as a delivery collects them.
    final class Failures: Sendable {
        let count = Atomic<Int>(0)
        func add() { count.add(1, ordering: .relaxed) }
    }

    typealias Strategy = @Sendable ([any Hook], Failures) async -> Void

    static let strategies: [(name: String, run: Strategy)] = [
        ("one after another (no concurrency: the sync path)", { hooks, failures in
            for hook in hooks { do { try await hook.run() } catch { failures.add() } }
        }),
        ("task group, a child task per hook (before)", { hooks, failures in
            await withTaskGroup(of: Bool.self) { group in
                for hook in hooks { group.addTask { (try? await hook.run()) != nil } }
                for await ok in group where !ok { failures.add() }
            }
        }),
        ("discarding task group, a child task per hook", { hooks, failures in
            await withDiscardingTaskGroup { group in
                for hook in hooks { group.addTask { do { try await hook.run() } catch { failures.add() } } }
            }
        }),
        ("task group, an immediate child task per hook", { hooks, failures in
            await withTaskGroup(of: Bool.self) { group in
                for hook in hooks { group.addImmediateTask { (try? await hook.run()) != nil } }
                for await ok in group where !ok { failures.add() }
            }
        }),
        ("discarding task group, an immediate child task per hook (HiveKit)", { hooks, failures in
            await withDiscardingTaskGroup { group in
                for hook in hooks { group.addImmediateTask { do { try await hook.run() } catch { failures.add() } } }
            }
        }),
        ("batches: two child tasks, each calling half the hooks in turn", { hooks, failures in
            await withDiscardingTaskGroup { group in
                let half = (hooks.count + 1) / 2
                for batch in [hooks.prefix(half), hooks.dropFirst(half)] {
                    group.addTask {
                        for hook in batch { do { try await hook.run() } catch { failures.add() } }
                    }
                }
            }
        }),
    ]

    static func run() async throws {
        let returning: [any Hook] = (0..<1_000).map { _ in Returns() }
        let sleeping: [any Hook] = (0..<100).map { _ in Sleeps() }
        for (name, strategy) in strategies {
            let failures = Failures()
            let perCall = await measure(warmUp: 20, iterations: 300) { await strategy(returning, failures) }
            Row("async strategies: 1,000 hooks that return at once: \(name)", perCall.divided(by: 1_000), note: "per hook").print()
        }
        for (name, strategy) in strategies {
            let failures = Failures()
            let total = await measure(warmUp: 2, iterations: 20) { await strategy(sleeping, failures) }
            Row("async strategies: 100 hooks that sleep 1 ms: \(name)", total, note: "in all").print()
        }
    }
}
