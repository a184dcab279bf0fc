import HiveKit

/// What a ``ScriptedModule`` does on an event besides recording it.
public enum Behavior: Sendable {
    /// Throws a ``TestFailure`` with this text.
    case fail(String)
    /// Sleeps, and ends early (throwing) when cancelled.
    case sleep(Duration)
    /// Waits without ever looking at cancellation (a truly stuck handler).
    case hang(Duration)
    /// Runs the body.
    case run(@Sendable (ModuleContext) async throws -> Void)
}
