import BenchSupport
import HiveKit
import Logging

/// A hive of N no-op modules, all sync or all async: `Hive(…, modules:)` and `start()`
/// (`setup`, then `init`) to start; `stop()` (`terminate` in order, `teardown` in
/// reverse) to stop.
struct HiveCandidate: Candidate {
    let isAsync: Bool
    var label: String { isAsync ? "HiveKit async" : "HiveKit sync" }

    /// A module that implements no hook.
    private struct NoOp: Module {}

    func cycle(units: Int, stopping: Bool) async throws -> Cycle {
        let heap0 = heapInUse()
        let resident0 = residentBytes()
        var registrations = (0..<units).map {
            (NoOp(), ModuleDescriptor(name: "unit-\($0)", isAsync: isAsync))
        }
        let configuration = HiveConfiguration(
            environment: .testing, logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
        let begin = Monotonic.now()
        let hive = try Hive(configuration, modules: registrations)
        try await hive.start()
        let started = Monotonic.now()
        registrations = []
        let heap = Double(heapInUse() - heap0)
        let resident = Double(residentBytes() - resident0)
        let start = Double(started &- begin)
        guard stopping else { return Cycle(start: start, stop: 0, heap: heap, resident: resident) }
        let failures = await hive.stop()
        let stopped = Monotonic.now()
        guard failures.isEmpty, hive.phase == .stopped else {
            throw ScaleBenchError(
                "\(label), \(units) modules: \(failures.count) failures at the stop, the first: \(failures.first.map { "\($0)" } ?? "none")")
        }
        return Cycle(start: start, stop: Double(stopped &- started), heap: heap, resident: resident)
    }
}
