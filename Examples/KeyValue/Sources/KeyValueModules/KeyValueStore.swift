/// The store as the other modules see it (a service of the registry).
public protocol KeyValueStore: Sendable {
    /// The value under `key`, if any.
    func value(for key: String) async -> String?
    /// Stores `value` under `key`.
    func set(_ value: String, for key: String) async
    /// Removes `key`; whether it was there.
    func remove(_ key: String) async -> Bool
    /// How many keys are stored.
    func count() async -> Int
}

/// What the HTTP responses carry, from the `responses` module's settings (a reload
/// changes it live).
public protocol ResponsePolicy: Sendable {
    /// The value of the `X-KV-Node` header of every response.
    var node: String { get }
}
