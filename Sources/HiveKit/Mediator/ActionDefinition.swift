/// A registered action as a listing shows it: what ``Mediator/definitions`` returns, and
/// what the control socket lists.
public struct ActionDefinition: Sendable, Hashable {
    /// The target: the module that registered the action, its owner.
    public let target: String
    /// The action's name.
    public let name: String
    /// Whether a URL may perform it (``Mediator/perform(url:extras:)``); actions are
    /// native-only by default.
    public let acceptsURLs: Bool

    /// A listing entry; HiveKit makes these from its actions.
    public init(target: String, name: String, acceptsURLs: Bool) {
        self.target = target
        self.name = name
        self.acceptsURLs = acceptsURLs
    }
}
