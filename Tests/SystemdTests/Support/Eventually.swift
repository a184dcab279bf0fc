/// Polls `condition` every 100 ms until it holds or `timeout` passes; returns whether it held.
func eventually(
    timeout: Duration = .seconds(30), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(100))
    }
}
