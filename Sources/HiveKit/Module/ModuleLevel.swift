/// Where a module stands in the start order (BeeHive's `BHModuleLevel`).
///
/// Levels are barriers, for every event and for sync and async modules alike: every
/// `basic` module has returned from a hook before any `normal` one is called (`terminate`
/// too); at `teardown` and `unmount`, which run in reverse order, every `normal` module
/// returns before any `basic` one is called. Within a level, modules go by priority
/// (higher first), then registration order. BeeHive has these two levels; the order and
/// the barriers are written for any number of them.
public enum ModuleLevel: Int, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// Infrastructure other modules rely on (storage, configuration, clocks).
    case basic = 0
    /// Everything else; the default.
    case normal = 1

    /// Parses `basic` or `normal`; `nil` for anything else.
    public init?(name: String) {
        switch name {
        case "basic": self = .basic
        case "normal": self = .normal
        default: return nil
        }
    }

    /// `basic` or `normal`, as a configuration file writes it.
    public var description: String { self == .basic ? "basic" : "normal" }

    /// Whether `lhs` starts before `rhs` (``basic`` before ``normal``).
    public static func < (lhs: ModuleLevel, rhs: ModuleLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
