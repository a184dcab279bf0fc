import Foundation

/// Runs `body(index)` for each index on `count` new threads at once and waits for them.
///
/// - Returns: `false` when they have not all returned within `seconds` (a hang).
public func runOnThreads(_ count: Int, within seconds: Double = 10, _ body: @escaping @Sendable (Int) -> Void) async -> Bool {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            body(index)
            group.leave()
        }
    }
    return await offPool { group.wait(timeout: .now() + seconds) == .success }
}

/// Runs blocking `body` on a thread of its own and waits for it without blocking a thread
/// of the cooperative pool, which the hive's other tests need (a starved pool makes
/// their hooks late for their budgets).
public func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// Starts `body` on a new thread; the returned group is left when it returns.
public func startThread(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
    let group = DispatchGroup()
    group.enter()
    Thread.detachNewThread {
        body()
        group.leave()
    }
    return group
}
