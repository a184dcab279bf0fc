import BenchSupport
import HiveKit

/// Issue 2: the cost of delivering one event to many no-op modules, profiler on.
enum DispatchBenchmarks {
    static func run() async throws {
        try await deliver(
            "dispatch: 1 event → empty hive (fixed cost)", modules: noOpRegistrations(0),
            iterations: 20_000, aim: "", perModule: false)
        try await deliver(
            "dispatch: 1 event → 1,000 sync modules", modules: noOpRegistrations(1_000),
            iterations: 2_000, aim: "< 1 ms")
        try await deliver(
            "dispatch: 1 event → 1,000 sync modules, no-op log handler", modules: noOpRegistrations(1_000),
            iterations: 2_000, aim: "< 1 ms", logger: .noOp)
        try await deliver(
            "dispatch: 1 event → 1,000 async modules",
            modules: noOpRegistrations(1_000) { _ in true },
            iterations: 500, aim: "")
        try await deliver(
            "dispatch: 1 event → 500 sync + 500 async",
            modules: noOpRegistrations(1_000) { $0 % 2 == 1 },
            iterations: 500, aim: "")
    }

    /// `events` events (plus a tenth as warm-up) to 1,000 sync modules, for
    /// `valgrind --tool=callgrind`: two runs with different counts, diffed, give the
    /// instructions per event without start-up.
    static func profile(events: Int, logger: BenchLogger) async throws {
        try await deliver(
            "profile: 1 event → 1,000 sync modules", modules: noOpRegistrations(1_000),
            iterations: events, aim: "", logger: logger)
    }

    /// Sends `memoryWarning` (an event that keeps the phase) over and over to a running
    /// hive of `modules` and prints the time per event.
    static func deliver(
        _ name: String, modules: [ModuleRegistration], iterations: Int, aim: String, perModule: Bool = true,
        logger: BenchLogger = .standard
    ) async throws {
        let count = modules.count
        let hive = try await runningHive(modules, logger: logger)
        let summary = try await measure(warmUp: iterations / 10, iterations: iterations) {
            try await hive.send(.memoryWarning)
        }
        let calls = hive.profile.modules.first?.events[.memoryWarning]?.calls ?? 0
        if count > 0 && calls < iterations {
            throw BenchError("\(name): the profiler counted \(calls) calls, expected ≥ \(iterations)")
        }
        let note = perModule ? "\(format(summary.median / Double(count), .nanoseconds)) per module" : ""
        Row(name, summary, aim: aim, note: note).print()
        await hive.stop()
    }
}
