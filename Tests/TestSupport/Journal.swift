import Synchronization

/// A shared, ordered log of what happened (a service's creation and release, a teardown);
/// a wait on it (``eventually(timeout:wakingOn:_:)``) wakes on each line.
public final class Journal: SignalsChanges {
    private let lines = Mutex<[String]>([])
    /// Signalled after each line.
    public let changes = ChangeSignal()
    /// An empty journal.
    public init() {}
    /// Appends `line` and wakes the waits on the journal.
    public func add(_ line: String) {
        lines.withLock { $0.append(line) }
        changes.signal()
    }
    /// Every line, in order.
    public var entries: [String] { lines.withLock { $0 } }
}
