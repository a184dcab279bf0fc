/// Polls `condition` every few milliseconds until it holds or `timeout` passes: for a
/// state nothing signals (a hive's lists, a log store).
public func eventually(
    timeout: Duration = .seconds(10), _ condition: @Sendable () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
