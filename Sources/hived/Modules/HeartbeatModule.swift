import HiveKit
import Synchronization

/// The `heartbeat` demo module: while the hive is running (after `ready`, not in
/// `background`), logs a beat at a fixed interval. It offers the action `heartbeat.beats`
/// (how many beats so far) and the route `hive://heartbeat/reset` (back to zero) to the
/// other modules.
///
/// ## Configuration keys
/// - `interval` (duration, default `10s`): time between beats; a reload changes it.
final class HeartbeatModule: Module {
    private struct State: Sendable {
        var beats = 0
        var task: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// Checks that the settings hold at most a duration `interval`.
    static func validate(_ settings: Settings) throws(HiveError) {
        try settings.requireKeys(in: ["interval"])
        _ = try settings.duration("interval")
    }

    func setup(_ context: ModuleContext) async throws {
        try context.mediator.register("beats") { [self] _ in state.withLock { $0.beats } }
        try context.router.register("hive://heartbeat/reset") { [self] _ in
            state.withLock { $0.beats = 0 }
            return true
        }
    }

    func ready(_ context: ModuleContext) async throws { try beat(context) }
    func foreground(_ context: ModuleContext) async throws { try beat(context) }
    func reload(_ context: ModuleContext) async throws {
        if state.withLock({ $0.task != nil }) { try beat(context) }
    }
    func background(_ context: ModuleContext) async throws { pause() }
    func terminate(_ context: ModuleContext) async throws { pause() }
    func teardown(_ context: ModuleContext) async throws { pause() }

    /// (Re)starts the beat with the current interval.
    private func beat(_ context: ModuleContext) throws {
        let interval = try context.settings.duration("interval") ?? .seconds(10)
        let logger = context.logger
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self, !Task.isCancelled else { return }
                let beats = self.state.withLock { state in
                    state.beats += 1
                    return state.beats
                }
                logger.info("beat \(beats)")
            }
        }
        state.withLock { state in
            state.task?.cancel()
            state.task = task
        }
    }

    private func pause() {
        state.withLock { state in
            state.task?.cancel()
            state.task = nil
        }
    }
}
