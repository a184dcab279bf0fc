/// The kind of a ``HiveEvent``, without parameters: the key of the profiler's tables. One
/// kind names a hook rather than an event: ``validateReload``, which a reload calls on
/// kept modules whose settings changed before it delivers `reload`.
public enum EventKind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// ``HiveEvent/setup``.
    case setup
    /// ``HiveEvent/init``.
    case `init`
    /// ``HiveEvent/ready``.
    case ready
    /// ``HiveEvent/background(params:)``.
    case background
    /// ``HiveEvent/foreground(params:)``.
    case foreground
    /// ``HiveEvent/reload``.
    case reload
    /// ``HiveEvent/memoryWarning(params:)``.
    case memoryWarning
    /// ``HiveEvent/custom(name:params:)``, whatever its name.
    case custom
    /// ``HiveEvent/terminate``.
    case terminate
    /// ``HiveEvent/teardown``.
    case teardown
    /// ``HiveEvent/unmount``.
    case unmount
    /// ``Module/validateReload(_:)``: a module asked whether it accepts new settings.
    case validateReload

    /// The name used in logs, journal fields and probe files (`init`, `memoryWarning`…).
    public var name: String {
        switch self {
        case .setup: "setup"
        case .`init`: "init"
        case .ready: "ready"
        case .background: "background"
        case .foreground: "foreground"
        case .reload: "reload"
        case .memoryWarning: "memoryWarning"
        case .custom: "custom"
        case .terminate: "terminate"
        case .teardown: "teardown"
        case .unmount: "unmount"
        case .validateReload: "validateReload"
        }
    }

    /// Parses a name as ``name`` prints it.
    public init?(name: String) {
        guard let kind = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = kind
    }

    /// The kind's ``name``.
    public var description: String { name }

    /// Whether a stalled handler of this kind is abandoned at its budget, so that the
    /// modules after it still run: the events of a stop or an unregister.
    var abandonsStalledHandlers: Bool {
        self == .terminate || self == .teardown || self == .unmount
    }
}
