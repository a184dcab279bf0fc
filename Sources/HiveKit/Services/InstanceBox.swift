/// A created service value, its type erased so that slots are not generic: reading it
/// back needs only the caller's own `Service` type, not generic class metadata, which
/// keeps a singleton resolve to a lookup and an atomic load.
///
/// `@unchecked Sendable` is safe: `pointer` is written once in `init`, before the box is
/// published (through `AtomicLazyReference`, with release/acquire ordering, or by being
/// returned to the resolving thread), and only read afterwards; the value it points to is `Sendable` (the generic `init` requires it)
/// and is destroyed only in `deinit`, when no reader can hold the box any more.
final class InstanceBox: @unchecked Sendable {
    private let pointer: UnsafeMutableRawPointer
    private let destroy: @Sendable (UnsafeMutableRawPointer) -> Void
    /// When the singleton was created (a hive-wide sequence number); 0 for transients.
    let order: Int
    /// The value, if it asked to be told when it is let go.
    let releasing: (any ServiceReleasing)?

    init<Service: Sendable>(_ value: Service, order: Int) {
        let typed = UnsafeMutablePointer<Service>.allocate(capacity: 1)
        typed.initialize(to: value)
        self.pointer = UnsafeMutableRawPointer(typed)
        self.destroy = { raw in
            let typed = raw.assumingMemoryBound(to: Service.self)
            typed.deinitialize(count: 1)
            typed.deallocate()
        }
        self.order = order
        self.releasing = value as? any ServiceReleasing
    }

    /// The value; `Service` must be the type the box was created with.
    @inline(__always)
    func value<Service>(as type: Service.Type) -> Service {
        pointer.assumingMemoryBound(to: Service.self).pointee
    }

    deinit { destroy(pointer) }
}
