@testable import HiveKit
import Testing

/// Unit tests of `DeadlineHeap`, the pending deadlines of the process's one timer. What
/// it serves (budgets and stalls seen on time) is tested through `Hive` in `BudgetTests`.
@Suite struct DeadlineHeapTests {
    @Test func popsInDeadlineOrderAndRemovesById() {
        var heap = DeadlineHeap<Int>()
        var generator = SystemRandomNumberGenerator()
        var expected: [UInt64: UInt64] = [:]
        for id in UInt64(1)...500 {
            let deadline = UInt64.random(in: 0..<1_000, using: &generator)
            heap.insert(id: id, deadline: deadline, Int(id))
            expected[id] = deadline
        }
        for id in stride(from: UInt64(1), through: 500, by: 3) {
            #expect(heap.remove(id: id)?.payload == Int(id))
            expected[id] = nil
        }
        #expect(heap.remove(id: 1) == nil, "already removed")
        #expect(heap.count == expected.count)
        var popped: [UInt64] = []
        while let item = heap.popFirst() {
            #expect(expected.removeValue(forKey: item.id) == item.deadline)
            popped.append(item.deadline)
        }
        #expect(expected.isEmpty)
        #expect(popped == popped.sorted())
        #expect(heap.first == nil)
    }
}
