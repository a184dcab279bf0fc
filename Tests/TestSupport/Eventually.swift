/// Checks `condition` every `period` until it holds or `timeout` passes; returns whether it
/// held. Only for what nothing in this process signals: a hive's own lists and counts,
/// another process's files or descriptors, `systemctl` state (SystemdTests poll every
/// 100 ms). What a ``SignalsChanges`` holds is waited for with
/// ``eventually(timeout:wakingOn:_:)`` instead.
public func eventually(
    timeout: Duration = .seconds(10), every period: Duration = .milliseconds(5),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    try await eventuallyValue(timeout: timeout, every: period) { try await condition() ? () : nil } != nil
}

/// Calls `produce` every `period` until it gives a value or `timeout` passes; returns the
/// value, or nil (also once the task is cancelled). Polls, as ``eventually(timeout:every:_:)``
/// does: only for what nothing in this process signals.
public func eventuallyValue<Value>(
    timeout: Duration = .seconds(10), every period: Duration = .milliseconds(5),
    _ produce: () async throws -> Value?
) async rethrows -> Value? {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try await produce() { return value }
        if ContinuousClock.now >= deadline { return nil }
        do { try await Task.sleep(for: period) } catch { return nil }
    }
}

/// Checks `condition` now and again each time `source` signals a change, until it holds or
/// `timeout` passes; returns whether it held. Wakes on the change, never on a timer.
public func eventually(
    timeout: Duration = .seconds(10), wakingOn source: some SignalsChanges,
    _ condition: () throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        let generation = source.changes.generation
        if try condition() { return true }
        if ContinuousClock.now >= deadline || Task.isCancelled { return false }
        await source.changes.wait(after: generation, until: deadline)
    }
}
