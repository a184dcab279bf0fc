import BenchSupport
import HiveKit

/// The cost of delivering one event to many no-op modules, profiler on.
enum DispatchBenchmarks {
    static func run() async throws {
        try await deliver(
            "dispatch: 1 event → empty hive (fixed cost)", modules: noOpRegistrations(0),
            iterations: 20_000, aim: "", perModule: false)
        let sync = try await deliver(
            "dispatch: 1 event → 1,000 sync modules", modules: noOpRegistrations(1_000),
            iterations: 2_000, aim: "≤ 200 µs")
        try await deliver(
            "dispatch: 1 event → 1,000 sync modules, no-op log handler", modules: noOpRegistrations(1_000),
            iterations: 2_000, aim: "≤ 200 µs", logger: .noOp)
        try await deliver(
            "dispatch: 1 event → 1,000 async modules",
            modules: noOpRegistrations(1_000) { _ in true },
            iterations: 500, aim: "≤ 2× sync", baseline: sync)
        try await deliver(
            "dispatch: 1 event → 500 sync + 500 async",
            modules: noOpRegistrations(1_000) { $0 % 2 == 1 },
            iterations: 500, aim: "", baseline: sync)
    }

    /// `events` events (plus a tenth as warm-up) to 1,000 sync (or async) modules, for
    /// `valgrind --tool=callgrind`: two runs with different counts, diffed, give the
    /// instructions per event without start-up.
    static func profile(events: Int, logger: BenchLogger, isAsync: Bool = false) async throws {
        try await deliver(
            "profile: 1 event → 1,000 \(isAsync ? "async" : "sync") modules",
            modules: noOpRegistrations(1_000) { _ in isAsync },
            iterations: events, aim: "", logger: logger)
    }

    /// Sends `memoryWarning` (an event that keeps the phase) over and over to a running
    /// hive of `modules` and prints the time per event (and per module, against
    /// `baseline`'s if given); returns the median per module.
    @discardableResult
    static func deliver(
        _ name: String, modules: [(module: any Module, descriptor: ModuleDescriptor)], iterations: Int, aim: String,
        perModule: Bool = true, logger: BenchLogger = .standard, baseline: Double? = nil
    ) async throws -> Double {
        let count = modules.count
        let hive = try await runningHive(modules, logger: logger)
        let summary = try await measure(warmUp: iterations / 10, iterations: iterations) {
            try await hive.send(.memoryWarning)
        }
        let calls = hive.profile.modules.first?.events[.memoryWarning]?.calls ?? 0
        if count > 0 && calls < iterations {
            throw BenchError("\(name): the profiler counted \(calls) calls, expected ≥ \(iterations)")
        }
        let each = count > 0 ? summary.median / Double(count) : 0
        var note = perModule ? "\(format(each, .nanoseconds)) per module" : ""
        if let baseline { note += " (\(ratio(each, to: baseline)) sync)" }
        Row(name, summary, aim: aim, note: note).print()
        await hive.stop()
        return each
    }
}
