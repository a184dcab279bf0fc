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
    /// Waits until `line` was added, waking on each line; false after `timeout`.
    public func waitFor(_ line: String, timeout: Duration = .seconds(10)) async -> Bool {
        await eventually(timeout: timeout, wakingOn: self) { entries.contains(line) }
    }
    /// Every line, in order.
    public var entries: [String] { lines.withLock { $0 } }
}
