import HiveKit
import Synchronization

/// The `heartbeat` demo module: while the hive is running (after `ready`, not in
/// `background`), logs a beat at a fixed interval. It offers the other modules the actions
/// `heartbeat.beats` (how many beats so far) and `heartbeat.reset` (back to zero; returns
/// how many there were), and the routes `hive://heartbeat/status` (the beats, the
/// interval, whether it beats) and `hive://heartbeat/reset`. None is callable from outside
/// the process unless the configuration exports it (hived's embedded default exports
/// `beats` and `hive://heartbeat/status`).
///
/// ## Configuration keys
/// - `interval` (duration, default `10s`): time between beats; a reload changes it.
final class HeartbeatModule: Module {
    private struct State: Sendable {
        var beats = 0
        var task: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// Checks that `interval`, if given, is a duration.
    static func validate(_ settings: Settings) throws(HiveError) {
        _ = try settings.duration("interval")
    }

    func setup(_ context: ModuleContext) async throws {
        try context.mediator.register("beats") { [self] _ in state.withLock { $0.beats } }
        try context.mediator.register("reset") { [self] _ in reset() }
        try context.router.register("hive://heartbeat/reset") { [self] _ in
            _ = reset()
            return true
        }
        try context.router.register("hive://heartbeat/status", producing: Status.self) { [self] _ in
            let interval = try context.hive.descriptor(named: context.moduleName)?.settings.duration("interval") ?? .seconds(10)
            let (seconds, fraction) = interval.components
            let text = fraction == 0 ? "\(seconds)s" : interval.shortDescription
            return state.withLock { state in Status(beats: state.beats, interval: text, beating: state.task != nil) }
        }
    }

    /// What `hive://heartbeat/status` answers.
    struct Status: Encodable, Sendable {
        let beats: Int
        let interval: String
        let beating: Bool
    }

    /// Back to zero beats; how many there were.
    private func reset() -> Int {
        state.withLock { state in
            defer { state.beats = 0 }
            return state.beats
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
