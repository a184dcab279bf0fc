/// A registered action as a listing shows it: what ``Mediator/definitions`` returns, and
/// what the control socket lists.
public struct ActionDefinition: Sendable, Hashable {
    /// The target: the module that registered the action, or one of its target types
    /// (`module.Target`, ``Mediator/register(target:acceptsURLs:exported:make:)``).
    public let target: String
    /// The action's name.
    public let name: String
    /// Whether a URL may perform it (``Mediator/perform(url:extras:)``); actions are
    /// native-only by default.
    public let acceptsURLs: Bool
    /// The module that registered it.
    public let owner: String
    /// Whether a call from outside the process (the control socket's `PerformAction`) may
    /// reach it: registered with `exported: true`, or exported by its module's
    /// configuration.
    public let exported: Bool

    /// A listing entry; HiveKit makes these from its actions. `owner` defaults to the
    /// target.
    package init(target: String, name: String, acceptsURLs: Bool, owner: String? = nil, exported: Bool = false) {
        self.target = target
        self.name = name
        self.acceptsURLs = acceptsURLs
        self.owner = owner ?? target
        self.exported = exported
    }
}
