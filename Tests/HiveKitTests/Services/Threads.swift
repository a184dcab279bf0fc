import Foundation

/// Runs `body(index)` for each index on `count` new threads at once and waits for them.
///
/// - Returns: `false` when they have not all returned within `seconds` (a hang).
func runOnThreads(_ count: Int, within seconds: Double = 10, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            body(index)
            group.leave()
        }
    }
    return group.wait(timeout: .now() + seconds) == .success
}

/// Starts `body` on a new thread; the returned group is left when it returns.
func startThread(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
    let group = DispatchGroup()
    group.enter()
    Thread.detachNewThread {
        body()
        group.leave()
    }
    return group
}
