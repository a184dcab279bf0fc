import Foundation

/// Runs `body`, which blocks (sockets, child processes), on a thread of its own and
/// waits for it without holding one of Swift's cooperative threads: on a 2-core machine
/// those are two, and a test that blocks them stalls every other test in the process.
func blocking<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    let result: Result<Value, any Error> = await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: Result { try body() }) }
        thread.start()
    }
    return try result.get()
}
