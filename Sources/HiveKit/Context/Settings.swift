/// A module's own settings (the `settings:` map of its configuration entry), with
/// typed access.
///
/// Accessors return `nil` for a missing key and throw ``HiveError`` naming the module
/// and key when the value has the wrong type, so a module can write
/// `let path = try context.settings.string("path") ?? "/var/lib/x"`. Settings read from a
/// configuration file also name the file and the key's line in those errors.
public struct Settings: Sendable, Hashable {
    /// The raw values by key.
    public var values: [String: SettingValue]
    /// The module these settings belong to, named in errors.
    public var owner: String
    /// Where the settings were written, if they come from a file; not part of equality.
    package var origin: SettingsOrigin?

    /// Settings with `values`, belonging to the module `owner`.
    public init(_ values: [String: SettingValue] = [:], owner: String = "") {
        self.values = values
        self.owner = owner
    }

    /// Whether both hold the same values for the same module; where they were written
    /// does not count.
    public static func == (lhs: Settings, rhs: Settings) -> Bool {
        lhs.values == rhs.values && lhs.owner == rhs.owner
    }

    /// Hashes the values and the owner, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
        hasher.combine(owner)
    }

    /// The raw value for `key`.
    public subscript(key: String) -> SettingValue? { values[key] }

    /// Whether no setting is given.
    public var isEmpty: Bool { values.isEmpty }

    /// A string setting.
    public func string(_ key: String) throws(HiveError) -> String? {
        switch values[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw mismatch(key, expected: "a string", found: other)
        }
    }

    /// An integer setting.
    public func int(_ key: String) throws(HiveError) -> Int? {
        switch values[key] {
        case nil, .null?: return nil
        case .int(let value)?: return value
        case let other?: throw mismatch(key, expected: "an integer", found: other)
        }
    }

    /// A number setting; integers are accepted.
    public func double(_ key: String) throws(HiveError) -> Double? {
        switch values[key] {
        case nil, .null?: return nil
        case .double(let value)?: return value
        case .int(let value)?: return Double(value)
        case let other?: throw mismatch(key, expected: "a number", found: other)
        }
    }

    /// A boolean setting.
    public func bool(_ key: String) throws(HiveError) -> Bool? {
        switch values[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case let other?: throw mismatch(key, expected: "a boolean", found: other)
        }
    }

    /// A duration setting written as `250ms`, `5s`, `2m` or `1h` (a decimal number and a
    /// unit, at most 100 years; see `Duration.init(parsing:)`).
    public func duration(_ key: String) throws(HiveError) -> Duration? {
        guard let text = try string(key) else { return nil }
        switch Duration.parse(text) {
        case .valid(let duration): return duration
        case .malformed: throw error(key, "must be a duration such as 250ms, 5s or 2m, not \(quoted: text)")
        case .beyondLimit: throw error(key, "must be a duration of at most 100 years, not \(quoted: text)")
        }
    }

    /// A list of strings; a single string counts as a list of one.
    public func strings(_ key: String) throws(HiveError) -> [String]? {
        switch values[key] {
        case nil, .null?: return nil
        case .string(let value)?: return [value]
        case .list(let items)?:
            var result: [String] = []
            for item in items {
                guard case .string(let value) = item else {
                    throw mismatch(key, expected: "a list of strings", found: item)
                }
                result.append(value)
            }
            return result
        case let other?: throw mismatch(key, expected: "a list of strings", found: other)
        }
    }

    /// A nested map, as settings of its own (errors still name this module).
    public func settings(_ key: String) throws(HiveError) -> Settings? {
        switch values[key] {
        case nil, .null?: return nil
        case .map(let map)?:
            var nested = Settings(map, owner: owner)
            nested.origin = origin?.nested(key)
            return nested
        case let other?: throw mismatch(key, expected: "a map", found: other)
        }
    }

    /// Checks that every key is one of `allowed`, so a misspelt setting is an error rather
    /// than silently ignored.
    ///
    /// A catalog already checks a module's own keys against those its type is registered
    /// with (``SettingKeys``); this is for a nested map
    /// (`try settings.settings("limits")?.requireKeys(in: ["max"])`) or a type that takes
    /// ``SettingKeys/any``.
    public func requireKeys(in allowed: [String]) throws(HiveError) {
        for key in values.keys.sorted() where !allowed.contains(key) {
            let expected = allowed.isEmpty ? "this module takes no settings" : "expected \(allowed.joined(separator: ", "))"
            throw HiveError(
                .invalidSettings, module: owner, location: origin?.location(of: key),
                "unknown setting \(quoted: path(of: key)); \(expected)")
        }
    }

    /// An error about `key`: `setting 'stall_on.teardown' must be…`, at the key's line
    /// when the settings come from a file.
    public func error(_ key: String, _ problem: String) -> HiveError {
        HiveError(
            .invalidSettings, module: owner, location: origin?.location(of: key),
            "setting \(quoted: path(of: key)) \(problem)")
    }

    /// `key` with the path of these settings in front (`stall_on.teardown`).
    private func path(of key: String) -> String {
        origin?.path(of: key) ?? key
    }

    private func mismatch(_ key: String, expected: String, found: SettingValue) -> HiveError {
        error(key, "must be \(expected), not \(found.typeName) \(quoted: "\(found)")")
    }
}
