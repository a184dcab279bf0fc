/// The settings a module type takes, declared where the type is registered; the catalog
/// refuses any other key, at its line, before the type's factory runs.
///
/// A list names the keys (`settings: ["ttl", "capacity"]`), in the order an error lists
/// them; `[]`, the default, takes no settings at all; ``any`` takes every key, for a type
/// whose settings are free-form (it then checks them itself).
public struct SettingKeys: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// The keys taken, in order; `nil` for any key.
    let names: [String]?

    private init(names: [String]?) {
        self.names = names
    }

    /// Exactly `keys`, listed in this order when a key is refused.
    public init(_ keys: [String]) {
        names = keys
    }

    /// Exactly the keys written, listed in this order when a key is refused.
    public init(arrayLiteral keys: String...) {
        names = keys
    }

    /// Every key, for a module type that takes free-form settings.
    public static let any = SettingKeys(names: nil)

    /// Throws for the first key (in sorted order) of `settings` not taken, as
    /// ``Settings/requireKeys(in:)`` does.
    func check(_ settings: Settings) throws(HiveError) {
        guard let names else { return }
        try settings.requireKeys(in: names)
    }
}
