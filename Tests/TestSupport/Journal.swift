import Synchronization

/// A shared, ordered log of what happened (a service's creation and release, a teardown).
public final class Journal: Sendable {
    private let lines = Mutex<[String]>([])
    /// An empty journal.
    public init() {}
    /// Appends `line`.
    public func add(_ line: String) { lines.withLock { $0.append(line) } }
    /// Every line, in order.
    public var entries: [String] { lines.withLock { $0 } }
}
