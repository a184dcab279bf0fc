import HiveKit

/// What an ``OutputWriter`` keeps waiting: the order its items go out in, its bound, and
/// what it does with an item past the bound (``DroppingQueue`` drops and counts it;
/// ``NotifyQueue`` coalesces what only the latest of counts).
protocol OutputQueue: SendableMetatype {
    associatedtype Item: Sendable
    /// Adds `item`; false when it was dropped rather than queued.
    mutating func add(_ item: Item) -> Bool
    /// Takes the next item to deliver.
    mutating func next() -> Item?
    /// Items waiting.
    var count: Int { get }
    /// The item ``next()`` would take.
    var first: Item? { get }
    /// Items dropped so far.
    var droppedCount: Int { get }
}

/// A bounded queue drained by a thread of its own: how the daemon writes to something
/// another process drains (a stderr pipe, the journal socket, `NOTIFY_SOCKET`) without
/// ever waiting for it. Nothing on the signal, event or stop path waits on another process.
///
/// ``enqueue(_:)`` never blocks: it hands the item to the queue, which keeps it within its
/// bound (see ``OutputQueue``). The writer thread, started with the first item, takes the
/// items one at a time, in order, and hands each to `deliver`, which may block for as long
/// as the reader does not read; meanwhile the queue alone holds what comes next.
/// ``flush(until:)`` waits, with a deadline, for everything queued to be delivered.
///
/// `@unchecked Sendable`: `queue`, `delivering`, `busySince` and `isStarted` are only
/// touched under `condition`'s mutex; `deliver` is `@Sendable`.
final class OutputWriter<Queue: OutputQueue>: @unchecked Sendable {
    private let name: String
    private let deliver: @Sendable (Queue.Item) -> Void
    private let condition = ThreadCondition()
    private var queue: Queue
    /// The item being delivered, and since when (`CLOCK_MONOTONIC` nanoseconds).
    private var delivering: Queue.Item?
    private var busySince: UInt64 = 0
    private var isStarted = false

    /// A writer of `queue`'s items whose thread (started at the first item) is called
    /// `name` and hands each to `deliver`.
    init(name: String, queue: Queue, deliver: @escaping @Sendable (Queue.Item) -> Void) {
        self.name = name
        self.queue = queue
        self.deliver = deliver
    }

    /// Queues `item` for the writer thread; never blocks. Returns false when the queue
    /// dropped it.
    @discardableResult
    func enqueue(_ item: Queue.Item) -> Bool {
        let (queued, start) = condition.withLock { () -> (Bool, Bool) in
            let queued = queue.add(item)
            defer { isStarted = true }
            return (queued, !isStarted)
        }
        if start {
            DaemonThread.start(name: name) { [self] in drain() }
        } else {
            condition.broadcast()
        }
        return queued
    }

    /// Delivers `item` on the calling thread with `deliverNow` if the writer is idle
    /// (nothing queued, nothing being delivered), keeping the writer waiting meanwhile so
    /// that the order holds; otherwise, or if `deliverNow` fails, queues it as
    /// ``enqueue(_:)`` does. Returns whether it was delivered here. For a last item that
    /// cannot wait for the writer thread to wake on a loaded machine (the stop guard's
    /// report): `deliverNow` must not block.
    @discardableResult
    func deliverOrEnqueue(_ item: Queue.Item, _ deliverNow: (Queue.Item) -> Bool) -> Bool {
        let delivered = condition.withLock { queue.count == 0 && delivering == nil && deliverNow(item) }
        if !delivered { enqueue(item) }
        return delivered
    }

    /// Whether the writer has been delivering one item since before `instant`
    /// (`CLOCK_MONOTONIC` nanoseconds): its reader does not read.
    func isBlocked(since instant: UInt64) -> Bool {
        condition.withLock { delivering != nil && busySince < instant }
    }

    /// Waits until everything queued so far was delivered, or until `deadline`
    /// (`CLOCK_MONOTONIC` nanoseconds). Returns whether the queue drained.
    @discardableResult
    func flush(until deadline: UInt64) -> Bool {
        condition.withLock {
            while queue.count > 0 || delivering != nil {
                guard MonotonicClock.nanoseconds() < deadline else { return false }
                condition.wait(until: deadline)
            }
            return true
        }
    }

    /// Items dropped so far.
    var droppedCount: Int { condition.withLock { queue.droppedCount } }

    /// What is held up, if anything: how many items wait (the one being delivered
    /// included), the first of them, and since when it is being delivered (or, if none
    /// is, now).
    func backlog() -> (waiting: Int, first: Queue.Item, since: UInt64)? {
        condition.withLock {
            guard let first = delivering ?? queue.first else { return nil }
            let since = busySince != 0 ? busySince : MonotonicClock.nanoseconds()
            return (queue.count + (delivering == nil ? 0 : 1), first, since)
        }
    }

    /// The writer thread: takes the next item, delivers it, repeats.
    private func drain() {
        while true {
            let item = condition.withLock { () -> Queue.Item in
                delivering = nil
                busySince = 0
                condition.broadcast()
                while true {
                    if let item = queue.next() {
                        delivering = item
                        busySince = MonotonicClock.nanoseconds()
                        return item
                    }
                    condition.wait(until: nil)
                }
            }
            deliver(item)
        }
    }
}
