/// A lifecycle event delivered to every module (BeeHive's `BHModuleEventType`).
///
/// Custom events stand in for BeeHive's events numbered 1000 and up with their
/// `customParam`: a name plus string parameters. `background`, `foreground` and
/// `memoryWarning` carry parameters too, saying where they came from (`reason: sleep`,
/// `reason: signal`, `source: psi`); ``background``, ``foreground`` and
/// ``memoryWarning`` without arguments are the events with no parameters.
public enum HiveEvent: Sendable, Hashable, CustomStringConvertible {
    case setup
    case `init`
    case ready
    case background(params: [String: String])
    case foreground(params: [String: String])
    case reload
    case memoryWarning(params: [String: String])
    case custom(name: String, params: [String: String] = [:])
    case terminate
    case teardown
    case unmount

    /// `background` with no parameters.
    public static var background: HiveEvent { .background(params: [:]) }
    /// `foreground` with no parameters.
    public static var foreground: HiveEvent { .foreground(params: [:]) }
    /// `memoryWarning` with no parameters.
    public static var memoryWarning: HiveEvent { .memoryWarning(params: [:]) }

    /// The event's parameters: a custom event's, or where `background`, `foreground` or
    /// `memoryWarning` came from; empty for the other events.
    public var parameters: [String: String] {
        switch self {
        case .background(let params), .foreground(let params), .memoryWarning(let params),
            .custom(_, let params):
            params
        default: [:]
        }
    }

    /// The event without its parameters, usable as an index.
    public var kind: EventKind {
        switch self {
        case .setup: .setup
        case .`init`: .`init`
        case .ready: .ready
        case .background: .background
        case .foreground: .foreground
        case .reload: .reload
        case .memoryWarning: .memoryWarning
        case .custom: .custom
        case .terminate: .terminate
        case .teardown: .teardown
        case .unmount: .unmount
        }
    }

    /// `custom:NAME` for custom events, otherwise the kind's name.
    public var description: String {
        if case .custom(let name, _) = self { return "custom:\(name)" }
        return kind.name
    }
}
