/// One handler call: which module, which event, how long, how it ended.
public struct HandlerTiming: Sendable, Hashable, CustomStringConvertible {
    /// The module called.
    public let module: String
    /// The event it handled.
    public let event: EventKind
    /// How long the call took.
    public let duration: Duration
    /// Whether it returned, threw or was abandoned.
    public let outcome: HandlerOutcome
    /// The module's level: a start phase runs level after level.
    public let level: ModuleLevel

    /// A timing of one call.
    public init(
        module: String, event: EventKind, duration: Duration, outcome: HandlerOutcome, level: ModuleLevel = .normal
    ) {
        self.module = module
        self.event = event
        self.duration = duration
        self.outcome = outcome
        self.level = level
    }

    /// `12.5ms store.init` (with the outcome when it did not succeed).
    public var description: String {
        let suffix = outcome == .succeeded ? "" : " (\(outcome))"
        return "\(duration.shortDescription) \(module).\(event)\(suffix)"
    }
}
