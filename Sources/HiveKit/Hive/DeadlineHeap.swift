/// A min-heap of deadlines with an index by id: the earliest in O(1), insert, removal of
/// the earliest and removal by id in O(log n). ``DeadlineTimer``'s pending actions.
struct DeadlineHeap<Payload> {
    struct Item {
        let id: UInt64
        let deadline: UInt64
        let payload: Payload
    }

    private var items: [Item] = []
    /// Where each id sits in `items`.
    private var positions: [UInt64: Int] = [:]

    /// No deadlines.
    init() {}

    /// How many deadlines are pending.
    var count: Int { items.count }

    /// The earliest deadline, if any.
    var first: Item? { items.first }

    /// Adds `payload` under `id`, which must not be pending already.
    mutating func insert(id: UInt64, deadline: UInt64, _ payload: Payload) {
        items.append(Item(id: id, deadline: deadline, payload: payload))
        positions[id] = items.count - 1
        siftUp(items.count - 1)
    }

    /// Removes and returns the item under `id`, if pending.
    @discardableResult
    mutating func remove(id: UInt64) -> Item? {
        guard let index = positions[id] else { return nil }
        return remove(at: index)
    }

    /// Removes and returns the earliest item, if any.
    mutating func popFirst() -> Item? {
        items.isEmpty ? nil : remove(at: 0)
    }

    private mutating func remove(at index: Int) -> Item {
        let removed = items[index]
        positions[removed.id] = nil
        let last = items.removeLast()
        if index < items.count {
            items[index] = last
            positions[last.id] = index
            if index > 0 && items[index].deadline < items[(index - 1) / 2].deadline {
                siftUp(index)
            } else {
                siftDown(index)
            }
        }
        return removed
    }

    private mutating func siftUp(_ start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard items[index].deadline < items[parent].deadline else { break }
            swapAt(index, parent)
            index = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1
            guard left < items.count else { return }
            var smallest = left
            if left + 1 < items.count && items[left + 1].deadline < items[left].deadline { smallest = left + 1 }
            guard items[smallest].deadline < items[index].deadline else { return }
            swapAt(index, smallest)
            index = smallest
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        items.swapAt(a, b)
        positions[items[a].id] = a
        positions[items[b].id] = b
    }
}
