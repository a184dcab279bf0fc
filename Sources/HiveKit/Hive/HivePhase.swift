/// The hive's lifecycle as an explicit state machine.
///
/// ```
/// created ─start→ initialized ─ready→ running ⇄ suspended   (background/foreground)
///    │                 └──────────┴──────┴─terminate→ terminating ─teardown→ stopped
///    └─ a setup/init failure → failed (after rollback)
/// ```
/// `reload`, `custom` and `memoryWarning` keep the phase; anything else is refused.
public enum HivePhase: String, Sendable, Hashable, CustomStringConvertible {
    /// Modules may be registered; nothing has run.
    case created
    /// `setup` and `init` are running.
    case starting
    /// Every module finished `init`; `ready` not yet delivered.
    case initialized
    /// `ready` was delivered.
    case running
    /// `background` was delivered; `foreground` resumes.
    case suspended
    /// `terminate` was delivered; only `teardown` may follow.
    case terminating
    /// `teardown` ran; the hive accepts nothing more.
    case stopped
    /// Start failed and was rolled back; the hive accepts nothing more.
    case failed

    /// The phase's name, as the control socket's `GetStatus` reports it (`running`).
    public var description: String { rawValue }

    /// Whether modules may receive events and be registered dynamically.
    var isLive: Bool { self == .initialized || self == .running || self == .suspended }

    /// The phase after delivering `kind`, or `nil` when `kind` is refused now.
    func after(_ kind: EventKind) -> HivePhase? {
        switch (kind, self) {
        case (.ready, .initialized): .running
        case (.background, .running): .suspended
        case (.foreground, .suspended): .running
        case (.reload, _), (.custom, _), (.memoryWarning, _): isLive ? self : nil
        case (.terminate, _): isLive ? .terminating : nil
        case (.teardown, _): isLive || self == .terminating ? .stopped : nil
        default: nil
        }
    }
}
