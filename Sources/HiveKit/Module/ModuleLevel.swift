/// Where a module stands in the start order (BeeHive's `BHModuleLevel`).
///
/// Every basic module starts before every normal one, whatever their priorities.
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

    public var description: String { self == .basic ? "basic" : "normal" }

    public static func < (lhs: ModuleLevel, rhs: ModuleLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
