/// A lifecycle event delivered to every module (BeeHive's `BHModuleEventType`).
///
/// Custom events stand in for BeeHive's events numbered 1000 and up with their
/// `customParam`: a name plus string parameters.
public enum HiveEvent: Sendable, Hashable, CustomStringConvertible {
    case setup
    case `init`
    case ready
    case background
    case foreground
    case reload
    case memoryWarning
    case custom(name: String, params: [String: String] = [:])
    case terminate
    case teardown
    case unmount

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
