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

    /// `12.5ms store.init` (with the outcome when it did not succeed).
    public var description: String {
        let suffix = outcome == .succeeded ? "" : " (\(outcome))"
        return "\(duration.shortDescription) \(module).\(event)\(suffix)"
    }
}
