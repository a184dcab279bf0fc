#if canImport(Glibc)
import Glibc
#endif

/// The notifications waiting for the notifier's writer thread (its ``OutputQueue``), in
/// order, bounded.
///
/// State messages (`READY=1`, `RELOADING=1`, `STOPPING=1`, `ERRNO=`…) are never reordered
/// and never dropped one by one. What only the latest of counts is coalesced: a
/// `WATCHDOG=1` already waiting absorbs the next, a newer `STATUS=` or
/// `EXTEND_TIMEOUT_USEC=` replaces a waiting one. If more than ``stateLimit`` state
/// messages wait (a reload storm against a receiver that stopped reading), the oldest
/// `RELOADING=1` … `READY=1` pair is taken out: systemd never saw its start, and the
/// state it ends in is the same. An `FDSTOREREMOVE=1` takes out the `FDSTORE=1` of the same
/// name still waiting (closing the copies of the descriptors it carried): a storm of short
/// connections that a module stores and removes again sends the service manager one
/// removal each, not a descriptor and its removal, and holds no descriptor while a busy
/// PID 1 does not read. The removal itself is kept: a descriptor of that name may be in the
/// store already, from this process or the one before.
struct NotifyQueue: OutputQueue {
    /// The most state messages kept waiting before reload pairs are collapsed.
    static let stateLimit = 64

    private(set) var pending: [NotifyMessage] = []
    /// Messages taken out by coalescing or collapsing, so far.
    private(set) var coalesced = 0

    /// Adds `message` at the end, coalescing as described above; never drops it.
    @discardableResult
    mutating func add(_ message: NotifyMessage) -> Bool {
        switch message.kind {
        case .watchdog:
            if pending.contains(where: { $0.kind == .watchdog }) {
                coalesced += 1
                return true
            }
        case .status, .extendTimeout:
            let before = pending.count
            pending.removeAll { $0.kind == message.kind }
            coalesced += before - pending.count
        case .state:
            if let name = message.removedStoreName { cancelStores(named: name) }
        }
        pending.append(message)
        if message.kind == .state { collapseReloads() }
        return true
    }

    /// Takes the oldest message.
    mutating func next() -> NotifyMessage? {
        pending.isEmpty ? nil : pending.removeFirst()
    }

    var isEmpty: Bool { pending.isEmpty }

    var count: Int { pending.count }

    var first: NotifyMessage? { pending.first }

    /// None: notifications are coalesced (``coalesced``), never dropped.
    var droppedCount: Int { 0 }

    /// Takes out the `FDSTORE=1` messages of `name` still waiting, closing their descriptors.
    private mutating func cancelStores(named name: String) {
        let before = pending.count
        pending.removeAll { message in
            guard message.storedName == name else { return false }
            message.descriptors.forEach { close($0) }
            return true
        }
        coalesced += before - pending.count
    }

    private mutating func collapseReloads() {
        while pending.count(where: { $0.kind == .state }) > Self.stateLimit {
            let states = pending.indices.filter { pending[$0].kind == .state }
            guard let pair = zip(states, states.dropFirst()).first(where: {
                pending[$0.0].text.hasPrefix("RELOADING=1") && pending[$0.1].text.hasPrefix("READY=1")
            }) else { return }
            pending.remove(at: pair.1)
            pending.remove(at: pair.0)
            coalesced += 2
        }
    }
}
