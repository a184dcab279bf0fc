import HiveKit
/// Whether hived follows the system's sleep through logind (the `sleep:` section of the
/// configuration).
///
/// ## Configuration keys
/// - `sleep.follow`: take a delay inhibitor lock from logind and deliver `background` /
///   `foreground` (`reason: sleep`) around system sleep (default `true`). Takes effect at
///   the next start.
/// - `sleep.budget`: how long `background` may hold the sleep up before the lock is
///   released anyway and the late modules are logged (default `4s`, below logind's
///   default `InhibitDelayMaxSec=5`). A reload applies it at once.
public struct SleepConfiguration: Sendable, Hashable {
    /// Whether to follow logind's `PrepareForSleep`.
    public var follow: Bool
    /// How long the delay lock is held for `background`.
    public var budget: Duration

    /// A sleep configuration; the defaults follow sleep with a budget of 4 s.
    init(follow: Bool = true, budget: Duration = .seconds(4)) {
        self.follow = follow
        self.budget = budget
    }
}
