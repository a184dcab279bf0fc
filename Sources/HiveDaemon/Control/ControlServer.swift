#if canImport(Glibc)
import Glibc
#endif
import HiveKit
import Logging
import Synchronization

/// The control socket's server: a thread of its own polls the listening socket and
/// every client, so nothing it does (a slow client, a flood, a malformed message) can
/// block the signal reader or event delivery. Calls that need the daemon's event loop
/// are queued to it and answered when done (``reply(_:to:)``, from any thread).
///
/// Limits: 64 clients at once (more are accepted, answered `Unavailable` and closed at
/// once, and counted); messages up to 1 MiB; a complete call within ``idleTimeout`` of
/// connecting or of the last reply; a subscriber that falls
/// ``ControlSubscription/capacity`` events behind is dropped. Out of descriptors, the
/// listener is served with a spare one (accept, answer `Unavailable`, close) or left alone
/// for ``acceptPause``: never polled in a loop.
final class ControlServer: Sendable {
    /// Clients served at once.
    static let maximumClients = 64
    /// Refused peers waiting for their `PermissionDenied` to be read, at once.
    static let maximumRefused = 64
    /// The largest message read, without its NUL.
    static let maximumMessage = 1 << 20
    /// Bytes of unsent replies a subscriber may hold (passed by one notice at most); its
    /// next ones wait in the subscription's ring until its socket takes these.
    static let subscriberBacklog = 64 << 10
    /// How long a refused peer may keep its connection to read the refusal.
    static let refusalLinger: UInt64 = 2_000_000_000
    /// How long a connection may take to send a complete call, from its connection or from
    /// the reply to its previous call (written or not); then it is closed. A subscriber, and
    /// a connection whose call the daemon is answering, are not timed.
    static let idleTimeout: UInt64 = 10_000_000_000
    /// How long the listener is not polled after `accept` failed for lack of descriptors
    /// (and the spare one could not serve) or of memory.
    static let acceptPause: UInt64 = 250_000_000
    /// At most one warning per this interval for each kind of trouble that may recur
    /// thousands of times a second: connections turned away at ``maximumClients`` or for
    /// lack of descriptors, refused peers, idle connections closed. The next message
    /// counts the ones in between.
    static let warningInterval = Duration.seconds(10)

    let path: String
    let access: ControlAccess
    let service: DaemonControl
    let logger: Logger
    let wake: Wakeup
    let statistics = ControlStatistics()
    private let listener: Int32
    private let outbox = Mutex<[(connection: UInt64, bytes: [UInt8])]>([])
    private let stopped = Atomic<Bool>(false)
    /// Set by the thread as it ends, under `ended`'s mutex.
    private let hasEnded = Atomic<Bool>(false)
    private let ended = ThreadCondition()

    /// Serves `listener` (from ``ControlSocketFile/listen(at:groupID:)``) on a new thread.
    ///
    /// - Throws: ``ControlSocketError`` when no wakeup or thread can be made.
    init(path: String, listener: Int32, access: ControlAccess, service: DaemonControl, logger: Logger) throws(ControlSocketError) {
        guard let wake = Wakeup() else { throw ControlSocketError(path, "eventfd", errno: errno) }
        self.path = path
        self.listener = listener
        self.access = access
        self.service = service
        self.logger = logger
        self.wake = wake
        service.subscription.setWake(wake)
        let loop = ControlLoop(server: self, listener: listener)
        guard DaemonThread.start(name: "hive-control", { loop.run() }) else {
            throw ControlSocketError(path, "pthread_create", errno: errno)
        }
    }

    /// Answers a call that went through the daemon's queue; safe from any thread, never
    /// blocks. A reply to a connection that has gone is dropped.
    func reply(_ bytes: [UInt8], to connection: UInt64) {
        outbox.withLock { $0.append((connection, bytes)) }
        wake.signal()
    }

    /// Replies queued by ``reply(_:to:)`` since the last call (the socket thread's side).
    func takeReplies() -> [(connection: UInt64, bytes: [UInt8])] {
        outbox.withLock { outbox in
            defer { outbox.removeAll() }
            return outbox
        }
    }

    /// Ends the thread, which sends the replies still owed (as far as each socket takes
    /// them without waiting) and closes every connection and the listening socket; waits
    /// for it at most `limit`, then removes the socket file.
    func stop(waitingAtMost limit: Duration = .milliseconds(100)) {
        stopped.store(true, ordering: .releasing)
        wake.signal()
        let deadline = MonotonicClock.nanoseconds() &+ limit.nanosecondsClamped
        ended.withLock {
            while !hasEnded.load(ordering: .acquiring), MonotonicClock.nanoseconds() < deadline {
                ended.wait(until: deadline)
            }
        }
        ControlSocketFile.removeCreated()
    }

    /// Called by the thread as it ends.
    func markEnded() {
        ended.withLock { hasEnded.store(true, ordering: .releasing) }
        ended.broadcast()
    }

    var isStopped: Bool { stopped.load(ordering: .acquiring) }
}

/// What the control socket counted: for metrics and logs.
final class ControlStatistics: Sendable {
    /// Connections served.
    let accepted = Atomic<Int>(0)
    /// Peers refused with `PermissionDenied`.
    let denied = Atomic<Int>(0)
    /// Connections closed at once because 64 clients were already served.
    let overLimit = Atomic<Int>(0)
    /// Connections closed at once because the daemon was out of file descriptors.
    let noDescriptor = Atomic<Int>(0)
    /// Connections closed because no complete call came within ``ControlServer/idleTimeout``.
    let idle = Atomic<Int>(0)
    /// Connections closed for breaking the protocol (malformed JSON, over 1 MiB…).
    let malformed = Atomic<Int>(0)
    /// Subscribers dropped because they stopped reading.
    let droppedSubscribers = Atomic<Int>(0)
}
