/// The ``OutputQueue`` of a log sink (stderr, the journal): at most `maximumItems` items and
/// `maximumBytes` bytes wait; past that, items are dropped and counted, and where a run of
/// them is missing the writer delivers `notice(count, first dropped item)` at that very
/// place, once the sink took everything before: the reader learns how many lines are
/// missing, and where.
struct DroppingQueue<Item: Sendable>: OutputQueue {
    private enum Entry {
        case item(Item, bytes: Int)
        /// How many items were dropped here, and the first of them.
        case dropped(Int, first: Item)
    }

    private let maximumItems: Int
    private let maximumBytes: Int
    private let size: @Sendable (Item) -> Int
    private let notice: @Sendable (Int, Item) -> Item
    private var entries = FIFO<Entry>()
    private var items = 0
    private var bytes = 0
    private(set) var droppedCount = 0

    /// A queue of at most `maximumItems` items and `maximumBytes` bytes (as `size` counts
    /// them); `notice` makes the item delivered where a run of items was dropped.
    init(
        maximumItems: Int, maximumBytes: Int, size: @escaping @Sendable (Item) -> Int,
        notice: @escaping @Sendable (Int, Item) -> Item
    ) {
        self.maximumItems = maximumItems
        self.maximumBytes = maximumBytes
        self.size = size
        self.notice = notice
    }

    mutating func add(_ item: Item) -> Bool {
        let itemBytes = size(item)
        guard items < maximumItems, bytes + itemBytes <= maximumBytes else {
            droppedCount += 1
            if case .dropped(let count, let first)? = entries.last {
                entries.last = .dropped(count + 1, first: first)
            } else {
                entries.append(.dropped(1, first: item))
            }
            return false
        }
        entries.append(.item(item, bytes: itemBytes))
        items += 1
        bytes += itemBytes
        return true
    }

    mutating func next() -> Item? {
        guard let entry = entries.popFirst() else { return nil }
        switch entry {
        case .item(let item, let itemBytes):
            items -= 1
            bytes -= itemBytes
            return item
        case .dropped(let count, let first):
            return notice(count, first)
        }
    }

    var count: Int { entries.count }

    var first: Item? {
        switch entries.first {
        case .item(let item, _)?: item
        case .dropped(let count, let first)?: notice(count, first)
        case nil: nil
        }
    }
}
