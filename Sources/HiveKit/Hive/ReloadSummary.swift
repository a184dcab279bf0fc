/// What a configuration reload changed in a running hive.
public struct ReloadSummary: Sendable, CustomStringConvertible {
    /// Modules set up and initialized because the new configuration added or enabled them.
    public var added: [String] = []
    /// Modules torn down and unmounted because it removed or disabled them.
    public var removed: [String] = []
    /// Kept modules whose settings, order, budget or concurrency changed.
    public var changed: [String] = []
    /// Kept modules that received `reload`.
    public var reloaded = 0
    /// Added modules whose setup/init failed, and kept ones whose `reload` threw.
    public var failures: [HiveError] = []

    /// `reloaded 3 modules; added cache; removed old; changed store`.
    public var description: String {
        var parts = ["reloaded \(reloaded) module\(reloaded == 1 ? "" : "s")"]
        if !added.isEmpty { parts.append("added \(added.joined(separator: ", "))") }
        if !removed.isEmpty { parts.append("removed \(removed.joined(separator: ", "))") }
        if !changed.isEmpty { parts.append("changed \(changed.joined(separator: ", "))") }
        if !failures.isEmpty { parts.append("\(failures.count) failed: \(failures[0])") }
        return parts.joined(separator: "; ")
    }
}
