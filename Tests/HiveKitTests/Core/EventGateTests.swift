@testable import HiveKit
import TestSupport
import Testing

/// Unit tests of `EventGate`, the hive's internal FIFO lock. The contract it serves (calls
/// run one at a time in arrival order; a cancelled caller leaves the queue and is never
/// delivered) is tested through `Hive` in `QueueTests`.
@Suite struct EventGateTests {
    @Test func firstInFirstOut() async throws {
        let gate = EventGate()
        let order = Recorder()
        try await gate.acquire()
        var tasks: [Task<Void, any Error>] = []
        for index in 0..<6 {
            tasks.append(Task {
                try await gate.acquire()
                order.append("\(index)")
                gate.release()
            })
            // Wait until this one queued before starting the next: arrival order is known.
            #expect(await eventually { gate.waiting == index + 1 })
        }
        gate.release()
        for task in tasks { try await task.value }
        #expect(order.all == ["0", "1", "2", "3", "4", "5"])
        #expect(gate.waiting == 0)
        // Free again.
        try await gate.acquire()
        gate.release()
    }

    @Test func cancelledWaitersAreSkippedAndNeverGetTheGate() async throws {
        let gate = EventGate()
        let order = Recorder()
        try await gate.acquire()
        var tasks: [Task<Void, any Error>] = []
        for index in 0..<100 {
            tasks.append(Task {
                do {
                    try await gate.acquire()
                } catch {
                    order.append("cancelled \(index)")
                    throw error
                }
                order.append("\(index)")
                gate.release()
            })
            #expect(await eventually { gate.waiting == index + 1 })
        }
        for index in stride(from: 0, to: 100, by: 2) { tasks[index].cancel() }
        #expect(await eventually { gate.waiting == 50 })
        gate.release()
        for task in tasks { _ = try? await task.value }
        let granted = order.all.filter { !$0.hasPrefix("cancelled") }
        #expect(granted == stride(from: 1, to: 100, by: 2).map { "\($0)" })
        #expect(order.all.filter { $0.hasPrefix("cancelled") }.count == 50)
        #expect(gate.waiting == 0)
        try await gate.acquire()
        gate.release()
    }

    @Test func aCancelledTaskDoesNotTakeAFreeGate() async throws {
        let gate = EventGate()
        let attempt = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await gate.acquire()
        }
        await #expect(throws: CancellationError.self) { try await attempt.value }
        try await gate.acquire()  // still free
        gate.release()
    }
}
