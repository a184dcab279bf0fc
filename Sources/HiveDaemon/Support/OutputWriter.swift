import HiveKit

/// A bounded queue drained by a thread of its own: how hived writes to something another
/// process drains (a stderr pipe, the journal socket) without ever waiting for it.
///
/// ``enqueue(_:bytes:)`` never blocks: it queues the item, or, when the queue already holds
/// `maximumItems` items or `maximumBytes` bytes, counts it as dropped (the batch the writer
/// is delivering no longer counts, so at most twice the bounds are held). The writer thread
/// hands items to `deliver` (which may block) in order; where items were dropped it
/// delivers `dropNotice(count, first dropped item)` at that very place, once the sink took everything before:
/// the reader learns how many lines are missing, and where.
///
/// `@unchecked Sendable`: `state` is only touched under `condition`'s mutex; `deliver` and
/// `dropNotice` are `@Sendable`.
final class OutputWriter<Item: Sendable>: @unchecked Sendable {
    private enum Entry {
        case item(Item, bytes: Int)
        /// How many items were dropped here, and the first of them.
        case dropped(Int, first: Item)
    }

    private struct State {
        var queue: [Entry] = []
        var queuedBytes = 0
        var queuedItems = 0
        /// `CLOCK_MONOTONIC` nanoseconds since the writer has been delivering; 0 when idle.
        var busySince: UInt64 = 0
        var started = false
        var totalDropped = 0
    }

    private let name: String
    private let maximumItems: Int
    private let maximumBytes: Int
    private let deliver: @Sendable (Item) -> Void
    private let dropNotice: @Sendable (Int, Item) -> Item
    private let condition = ThreadCondition()
    private var state = State()

    /// A writer whose thread (started at the first item) is called `name`.
    init(
        name: String, maximumItems: Int, maximumBytes: Int,
        deliver: @escaping @Sendable (Item) -> Void,
        dropNotice: @escaping @Sendable (Int, Item) -> Item
    ) {
        self.name = name
        self.maximumItems = maximumItems
        self.maximumBytes = maximumBytes
        self.deliver = deliver
        self.dropNotice = dropNotice
    }

    /// Queues `item` (of `bytes` bytes) for the writer thread; never blocks. Returns false
    /// when the queue is full and the item was counted as dropped.
    @discardableResult
    func enqueue(_ item: Item, bytes: Int) -> Bool {
        let (queued, start) = condition.withLock { () -> (Bool, Bool) in
            guard state.queuedItems < maximumItems, state.queuedBytes + bytes <= maximumBytes else {
                state.totalDropped += 1
                if case .dropped(let count, let first)? = state.queue.last {
                    state.queue[state.queue.count - 1] = .dropped(count + 1, first: first)
                } else {
                    state.queue.append(.dropped(1, first: item))
                }
                return (false, false)
            }
            state.queue.append(.item(item, bytes: bytes))
            state.queuedItems += 1
            state.queuedBytes += bytes
            defer { state.started = true }
            return (true, !state.started)
        }
        if start {
            DaemonThread.start(name: name) { [self] in drain() }
        } else {
            condition.broadcast()
        }
        return queued
    }

    /// Waits until everything queued so far was delivered, or until `deadline`
    /// (`CLOCK_MONOTONIC` nanoseconds). Returns whether the queue drained.
    @discardableResult
    func flush(until deadline: UInt64) -> Bool {
        condition.withLock {
            while !state.queue.isEmpty || state.busySince != 0 {
                guard MonotonicClock.nanoseconds() < deadline else { return false }
                condition.wait(until: deadline)
            }
            return true
        }
    }

    /// Items dropped so far because the queue was full.
    var droppedCount: Int { condition.withLock { state.totalDropped } }

    /// What the writer is doing, if it has been delivering one batch since before `since`
    /// (`CLOCK_MONOTONIC` nanoseconds) or still holds items: `nil` when idle and empty.
    func backlog() -> (items: Int, busySince: UInt64)? {
        condition.withLock {
            guard state.busySince != 0 || !state.queue.isEmpty else { return nil }
            return (state.queuedItems, state.busySince)
        }
    }

    /// The writer thread: takes everything queued, delivers it in order, repeats.
    private func drain() {
        while true {
            let batch = condition.withLock { () -> [Entry] in
                state.busySince = 0
                condition.broadcast()
                while state.queue.isEmpty { condition.wait(until: nil) }
                state.busySince = MonotonicClock.nanoseconds()
                defer {
                    state.queue.removeAll(keepingCapacity: true)
                    state.queuedItems = 0
                    state.queuedBytes = 0
                }
                return state.queue
            }
            for entry in batch {
                switch entry {
                case .item(let item, _): deliver(item)
                case .dropped(let count, let first): deliver(dropNotice(count, first))
                }
            }
        }
    }
}
