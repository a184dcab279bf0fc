/// Checks `condition` every `period` (5 ms unless told) until it holds, and fails after
/// `timeout` naming `what` (with `detail()` for the failure message). Polls: only for what
/// nothing in this process signals (another process's files, its descriptors, its exit
/// seen through `Process`, a log written to a file). What a ``SignalsChanges`` holds is
/// waited for with ``waitUntil(_:timeout:wakingOn:detail:_:)``. Never a fixed wait.
public func waitUntil(
    _ what: String, timeout: Duration = .seconds(20), every period: Duration = .milliseconds(5),
    detail: () -> String = { "" }, _ condition: () async throws -> Bool
) async throws {
    guard try await eventually(timeout: timeout, every: period, condition) else {
        try Task.checkCancellation()
        throw timedOut(what, after: timeout, detail())
    }
}

/// Checks `condition` now and again each time `source` signals a change, and fails after
/// `timeout` naming `what` (with `detail()` for the failure message). Wakes on the change,
/// never on a timer.
public func waitUntil(
    _ what: String, timeout: Duration = .seconds(20), wakingOn source: some SignalsChanges,
    detail: () -> String = { "" }, _ condition: () throws -> Bool
) async throws {
    guard try await eventually(timeout: timeout, wakingOn: source, condition) else {
        try Task.checkCancellation()
        throw timedOut(what, after: timeout, detail())
    }
}

/// The failure of a wait for `what` that took `timeout`, with `extra` if any.
private func timedOut(_ what: String, after timeout: Duration, _ extra: String) -> TestFailure {
    TestFailure("timed out after \(timeout) waiting for \(what)" + (extra.isEmpty ? "" : "; \(extra)"))
}

/// Lets `duration` pass, so that a test can assert that something did *not* happen
/// meanwhile (no watchdog ping while a hook stalls). Never a way to wait for something to
/// happen: that is ``waitUntil(_:timeout:every:detail:_:)``.
public func observationWindow(_ duration: Duration) async throws {
    try await Task.sleep(for: duration)
}
