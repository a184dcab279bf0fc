/// The contract between the modules: a store of strings by key.
public protocol KeyValueStore: Sendable {
    /// Stores `value` under `key`.
    func set(_ value: String, for key: String) async
    /// The value under `key`, if any.
    func value(for key: String) async -> String?
    /// How many keys are stored.
    func count() async -> Int
    /// Drops every key; returns how many there were.
    func clear() async -> Int
}

/// A ``KeyValueStore`` in memory.
actor MemoryStore: KeyValueStore {
    private var entries: [String: String] = [:]

    func set(_ value: String, for key: String) { entries[key] = value }
    func value(for key: String) -> String? { entries[key] }
    func count() -> Int { entries.count }

    func clear() -> Int {
        defer { entries = [:] }
        return entries.count
    }
}
