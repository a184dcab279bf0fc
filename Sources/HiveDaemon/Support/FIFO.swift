/// A first-in, first-out array: appends at the end, takes from the front in O(1)
/// (amortised), and drops what was taken once it is most of the storage, so a queue that
/// never quite empties does not grow without end. The daemon's request queue and the log
/// sinks' queues keep their items in one.
struct FIFO<Element> {
    private var storage: [Element] = []
    private var head = 0

    /// An empty queue.
    init() {}

    /// How many elements wait.
    var count: Int { storage.count - head }

    var isEmpty: Bool { head == storage.count }

    /// The oldest element.
    var first: Element? { isEmpty ? nil : storage[head] }

    /// The newest element; setting it replaces it (the queue must not be empty).
    var last: Element? {
        get { isEmpty ? nil : storage[storage.count - 1] }
        set { if let newValue, !isEmpty { storage[storage.count - 1] = newValue } }
    }

    /// The elements waiting, oldest first, with indices that stay valid until the next
    /// ``popFirst()``.
    var waiting: ArraySlice<Element> { storage[head...] }

    /// Replaces the element at `index` (an index of ``waiting``).
    mutating func replace(at index: Int, with element: Element) {
        storage[index] = element
    }

    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Takes the oldest element.
    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: storage.capacity <= 1024)
            head = 0
        } else if head >= 1024, head * 2 >= storage.count {
            storage.removeSubrange(0..<head)
            head = 0
        }
        return element
    }

    /// Empties the queue; returns what waited, oldest first.
    mutating func removeAll() -> [Element] {
        defer {
            storage = []
            head = 0
        }
        return Array(waiting)
    }
}
