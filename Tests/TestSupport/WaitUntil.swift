/// Checks `condition` every 5 ms until it holds, and fails after `timeout` naming `what`
/// (with `detail()` for the failure message): for what nothing signals to the test (another
/// process's files, its descriptors, a log written to a file). Never a fixed wait.
public func waitUntil(
    _ what: String, timeout: Duration = .seconds(20),
    detail: () -> String = { "" }, _ condition: () throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else {
            let extra = detail()
            throw TestFailure("timed out after \(timeout) waiting for \(what)" + (extra.isEmpty ? "" : "; \(extra)"))
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// Lets `duration` pass, so that a test can assert that something did *not* happen
/// meanwhile (no watchdog ping while a hook stalls). Never a way to wait for something to
/// happen: that is ``waitUntil(_:timeout:detail:_:)``.
public func observationWindow(_ duration: Duration) async throws {
    try await Task.sleep(for: duration)
}
