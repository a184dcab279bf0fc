import Foundation

/// Runs `body`, which blocks (sockets, child processes), on a thread of its own and
/// waits for it without holding one of Swift's cooperative threads: on a 2-core machine
/// those are two, and a test that blocks them stalls every other test in the process.
///
/// With `lowPriority`, the thread runs at nice 10: a stress loop then takes the CPU only
/// when the other tests (some with budgets of 100 ms) leave it idle.
func blocking<Value: Sendable>(
    lowPriority: Bool = false, _ body: @escaping @Sendable () throws -> Value
) async throws -> Value {
    let result: Result<Value, any Error> = await withCheckedContinuation { continuation in
        let thread = Thread {
            // On Linux a nice value belongs to a thread: `who` 0 is the calling thread.
            if lowPriority { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
            continuation.resume(returning: Result { try body() })
        }
        thread.start()
    }
    return try result.get()
}

/// Sets every thread of process `pid` to nice 10 (a stressed daemon under test).
func lowerPriority(of pid: Int32) {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    for task in tasks.compactMap(UInt32.init) {
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), task, 10)
    }
}
