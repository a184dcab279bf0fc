/// A lifecycle event delivered to every module (BeeHive's `BHModuleEventType`).
///
/// Custom events stand in for BeeHive's events numbered 1000 and up with their
/// `customParam`: a name plus string parameters. `background`, `foreground` and
/// `memoryWarning` carry parameters too, saying where they came from (`reason: sleep`,
/// `reason: signal`, `source: psi`); ``background``, ``foreground`` and
/// ``memoryWarning`` without arguments are the events with no parameters.
public enum HiveEvent: Sendable, Hashable, CustomStringConvertible {
    /// The first event of start-up, and of a module that joins a running hive: register
    /// services, routes and actions (``Module/setup(_:)``).
    case setup
    /// The second event of start-up: start what the module runs (``Module/initialize(_:)``);
    /// a daemon sends `READY=1` once every module returned from it.
    case `init`
    /// Start-up is over and the supervisor was told so (``Module/ready(_:)``).
    case ready
    /// The daemon is suspended, `reason` saying by what: `signal` (`SIGTSTP`) or `sleep`.
    case background(params: [String: String])
    /// The daemon resumed after ``background``, `reason` saying who let it: `signal` or `sleep`.
    case foreground(params: [String: String])
    /// The configuration was reloaded; each module's context holds its new settings.
    case reload
    /// The system is short of memory (`source: psi`, with `some_avg10`, when a PSI file
    /// said so).
    case memoryWarning(params: [String: String])
    /// A named event of the application's own, with string parameters (BeeHive's custom
    /// events, numbered 1000 and up).
    case custom(name: String, params: [String: String] = [:])
    /// The hive is stopping: delivered in start order before any ``teardown``.
    case terminate
    /// Release everything: delivered in exactly the reverse of the start order, one module
    /// at a time.
    case teardown
    /// The module leaves a running hive, after its ``teardown``.
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
