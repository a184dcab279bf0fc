import Synchronization

/// A count shared across threads: how many times a factory ran, say.
public final class Counter: Sendable {
    /// The count so far.
    public let value = Atomic<Int>(0)
    /// A count from zero.
    public init() {}
    /// Adds one; returns the new count.
    @discardableResult public func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).newValue }
}
