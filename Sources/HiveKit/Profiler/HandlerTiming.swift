/// One handler call: which module, which event, how long, how it ended.
public struct HandlerTiming: Sendable, Hashable, CustomStringConvertible {
    public let module: String
    public let event: EventKind
    public let duration: Duration
    public let outcome: HandlerOutcome

    public init(module: String, event: EventKind, duration: Duration, outcome: HandlerOutcome) {
        self.module = module
        self.event = event
        self.duration = duration
        self.outcome = outcome
    }

    /// `12.5ms store.init` (with the outcome when it did not succeed).
    public var description: String {
        let suffix = outcome == .succeeded ? "" : " (\(outcome))"
        return "\(duration.shortDescription) \(module).\(event)\(suffix)"
    }
}
