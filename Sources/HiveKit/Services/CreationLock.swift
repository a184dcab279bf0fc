import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one lock a store's singleton creations take (Swinject's recursive container lock),
/// and the counter that orders creations across the store.
///
/// It is recursive for the thread holding it: a factory running under it may create the
/// other singletons it needs without locking again. A single lock rather than one per
/// service means two factories that need each other can never wait for each other from
/// two threads: first creations in one store run one at a time.
///
/// Only resolves take it. Removals, replacements and the release at the end of a stop do
/// not: they run on the hive's event path (`unregister`, a reload, a stop), which must not
/// wait on a factory that a module's own task runs outside any hook's budget — the
/// watchdog would go on being fed while the daemon is stuck (see `ServiceSlot.retire`).
final class CreationLock: Sendable {
    private let mutex = Mutex<Void>(())
    /// The thread holding `mutex`, 0 when none. Only the holder stores its own id, and it
    /// stores 0 before unlocking, so a thread reads its own id only while it holds the
    /// lock: relaxed ordering suffices.
    private let owner = Atomic<UInt>(0)
    private let next = Atomic<Int>(1)

    /// Runs `body` holding the lock; on the thread that already holds it, just runs it.
    ///
    /// Blocks while another thread holds the lock (a factory is running there).
    func withLock<Result: Sendable, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let thread = Self.currentThread()
        if owner.load(ordering: .relaxed) == thread { return try body() }
        return try mutex.withLock { _ throws(Failure) -> Result in
            owner.store(thread, ordering: .relaxed)
            defer { owner.store(0, ordering: .relaxed) }
            return try body()
        }
    }

    /// The next creation's sequence number, increasing across the store.
    func takeOrder() -> Int { next.wrappingAdd(1, ordering: .relaxed).oldValue }

    /// An id of the calling thread, never 0.
    static func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
