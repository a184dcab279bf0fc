/// One start phase (`setup` or `init`): its wall time and every handler call in it.
public struct StartupPhase: Sendable, Hashable {
    /// `setup` or `init`.
    public let event: EventKind
    /// Wall time of the whole phase.
    public let duration: Duration
    /// Sync modules' calls, in the order they ran (one after another).
    public let sync: [HandlerTiming]
    /// Async modules' calls, in the order they finished (concurrently with the sync ones).
    public let async: [HandlerTiming]

    /// The calls that set the phase's length, level after level (levels are barriers):
    /// in each, the sync chain, or the longest async call when it outlasted the chain.
    public var criticalPath: [HandlerTiming] {
        let levels = Set(sync.map(\.level) + async.map(\.level)).sorted()
        return levels.flatMap { level in
            let chain = sync.filter { $0.level == level }
            let length = chain.reduce(Duration.zero) { $0 + $1.duration }
            if let longest = async.filter({ $0.level == level }).max(by: { $0.duration < $1.duration }),
                longest.duration > length
            {
                return [longest]
            }
            return chain
        }
    }
}

/// How start-up spent its time (what `systemd-analyze critical-chain` is to boot).
public struct StartupProfile: Sendable, Hashable {
    /// `setup`, then `init` (absent if setup failed); empty before ``Hive/start(rollingBack:)``.
    public let phases: [StartupPhase]
    /// From the first `setup` call to the last `init` return.
    public let total: Duration

    /// A profile of `phases` that took `total` in all (empty before start-up).
    package init(phases: [StartupPhase] = [], total: Duration = .zero) {
        self.phases = phases
        self.total = total
    }

    /// The calls start-up waited for, phase after phase.
    public var criticalPath: [HandlerTiming] { phases.flatMap(\.criticalPath) }
}
