/// What a configuration reload did to a running hive: applied (``failure`` is `nil`), or
/// aborted in one of its phases with nothing changed.
public struct ReloadSummary: Sendable, CustomStringConvertible {
    /// Modules set up and initialized because the new configuration added or enabled them
    /// (a module whose type changed counts as removed and added).
    public var added: [String] = []
    /// Modules terminated, torn down and unmounted because it removed or disabled them.
    public var removed: [String] = []
    /// Kept modules whose settings, order, budget or concurrency changed.
    public var changed: [String] = []
    /// Modules that received `reload`: the kept ones and those registered in code.
    public var reloaded = 0
    /// Hooks that threw (or were abandoned) once the reload was applied: `reload`, the
    /// added modules' `ready`/`background`, the removed ones' `terminate`/`teardown`/
    /// `unmount`, and an aborted reload's rollback. None of them undoes the reload.
    public var failures: [HiveError] = []
    /// Why the reload was aborted, if it was; `nil` when it was applied.
    public var failure: ReloadFailure?
    /// How long it took, from the start of its turn.
    public var duration: Duration = .zero

    /// Whether the new configuration runs.
    public var isApplied: Bool { failure == nil }

    /// `added cache; removed old; changed store; 3 modules got reload`, or, for an aborted
    /// reload, its ``failure``.
    public var description: String {
        if let failure { return "\(failure)" }
        var parts: [String] = []
        if !added.isEmpty { parts.append("added \(added.joined(separator: ", "))") }
        if !removed.isEmpty { parts.append("removed \(removed.joined(separator: ", "))") }
        if !changed.isEmpty { parts.append("changed \(changed.joined(separator: ", "))") }
        parts.append("\(reloaded) module\(reloaded == 1 ? "" : "s") got reload")
        if !failures.isEmpty { parts.append("\(failures.count) hook\(failures.count == 1 ? "" : "s") failed: \(failures[0])") }
        return parts.joined(separator: "; ")
    }
}

/// Why a reload was aborted, and in which phase. Nothing changed, except for a module
/// whose type changed: it cannot run twice at once, so its old instance was removed
/// before its new one was set up, and there is no old instance to go back to (``lost``).
public struct ReloadFailure: Error, Sendable, CustomStringConvertible {
    /// The phases of a reload's preparation, in order; any of them can abort it.
    public enum Phase: String, Sendable, Hashable, CustomStringConvertible {
        /// Checking names and building the added modules through the catalog.
        case build
        /// Asking kept modules whose settings changed whether they accept them
        /// (``Module/validateReload(_:)``).
        case validate
        /// Setting up and initializing the added modules.
        case start

        /// The phase's name (`build`, `validate`, `start`).
        public var description: String { rawValue }
    }

    /// The phase that failed.
    public let phase: Phase
    /// The module, hook, cause and (where the cause is in the file) file:line.
    public let error: HiveError
    /// Added modules that were set up and then taken down again.
    public let rolledBack: [String]
    /// Modules whose type changed: removed before the failure, and not running now.
    public let lost: [String]

    /// The error, with what was lost: `module 'x' was replaced and its new type failed:
    /// hived.yaml:9: module 'x' (init): cause`.
    public var description: String {
        guard !lost.isEmpty else { return "\(error)" }
        let names = lost.map { "'\($0)'" }.joined(separator: ", ")
        if let module = error.module, lost.contains(module) {
            return "module '\(module)' was replaced and its new type failed: \(error)"
        }
        return "\(error); module\(lost.count == 1 ? "" : "s") \(names) had been replaced and \(lost.count == 1 ? "is" : "are") not running"
    }
}
