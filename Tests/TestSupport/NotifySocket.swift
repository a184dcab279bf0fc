import Foundation
import Synchronization

/// A datagram socket standing in for systemd's notification socket (`NOTIFY_SOCKET`).
///
/// A thread of its own reads every datagram as it arrives and keeps it with the time the
/// kernel queued it (`SO_TIMESTAMPNS`), so intervals between pings are measured exactly
/// however late a test looks, and with the descriptors passed along (`SCM_RIGHTS`, open
/// close-on-exec in this process: they are the test's to close, or `onDatagram`'s).
/// Every wait on it wakes when a datagram arrives, never on a timer: the async ones
/// (``waitFor(after:timeout:_:where:)``, ``drain(timeout:)``) through ``changes``, the
/// blocking ``next(timeout:)`` (for synchronous tests) on a condition variable.
public final class NotifySocket: SignalsChanges {
    /// One datagram, when the kernel received it, and the descriptors passed with it.
    public struct Datagram: Sendable {
        /// Its text.
        public let text: String
        /// `CLOCK_REALTIME` when the datagram was queued on the socket.
        public let received: Duration
        /// The descriptors passed with it, open in this process.
        public let descriptors: [Int32]
    }

    /// The socket's path: what `NOTIFY_SOCKET` names.
    public let path: String
    /// The directory the socket is in.
    public var directory: String { (path as NSString).deletingLastPathComponent }
    /// Signalled after each datagram.
    public let changes = ChangeSignal()
    private let descriptor: Int32
    private let received = Received()
    /// The directory ``init()`` made, removed at deinit.
    private let ownDirectory: String?

    /// The datagrams, shared with the reader thread; `condition` guards them and is
    /// broadcast on each one.
    private final class Received: @unchecked Sendable {
        // @unchecked: every field is read and written only with `condition` locked.
        let condition = NSCondition()
        var datagrams: [Datagram] = []
        /// The drain markers the reader has seen (see ``NotifySocket/drain(timeout:)``).
        var markers: Set<String> = []
        /// How many datagrams ``NotifySocket/next(timeout:)`` has handed out.
        var taken = 0

        func locked<T>(_ body: () throws -> T) rethrows -> T {
            condition.lock()
            defer { condition.unlock() }
            return try body()
        }
    }

    /// What ``drain(timeout:)`` sends to itself; the reader keeps it out of the datagrams.
    private static let markerPrefix = "HIVED_TEST_DRAIN="

    /// A socket bound at `path`; `onDatagram`, if given, sees each datagram on the reader
    /// thread before anyone waiting is woken, and owns its descriptors.
    public init(path: String, onDatagram: (@Sendable (Datagram) -> Void)? = nil) throws {
        self.path = path
        ownDirectory = nil
        descriptor = try UnixAddress.boundDatagramSocket(path)
        startReader(onDatagram)
    }

    /// A socket at `notify.sock` in `directory`.
    public convenience init(directory: String) throws {
        try self.init(path: directory + "/notify.sock")
    }

    /// A socket at `notify.sock` in a fresh temporary directory, removed with the socket.
    public init() throws {
        var template = Array((NSTemporaryDirectory() + "hivekit-notify-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp: errno \(errno)") }
        ownDirectory = String(cString: made)
        path = ownDirectory! + "/notify.sock"
        descriptor = try UnixAddress.boundDatagramSocket(path)
        startReader(nil)
    }

    /// Starts the thread that reads every datagram. It owns the descriptor: it closes it
    /// when `deinit`'s shutdown ends its `recvmsg`, so the number cannot be reused (by
    /// another test's socket) while the thread still reads from it.
    private func startReader(_ onDatagram: (@Sendable (Datagram) -> Void)?) {
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_TIMESTAMPNS, &on, socklen_t(MemoryLayout<Int32>.size))
        let fd = descriptor
        Thread { [received, changes] in
            while let datagram = Self.receive(fd) {
                if datagram.text.hasPrefix(Self.markerPrefix) {
                    _ = received.locked { received.markers.insert(datagram.text) }
                } else {
                    onDatagram?(datagram)
                    received.locked { received.datagrams.append(datagram) }
                }
                received.locked { received.condition.broadcast() }
                changes.signal()
            }
            close(fd)
        }.start()
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        if let ownDirectory {
            unlink(path)
            rmdir(ownDirectory)
        }
    }

    /// Every datagram so far, in arrival order.
    public var datagrams: [Datagram] { received.locked { received.datagrams } }

    /// Every datagram's text so far, in arrival order.
    public var messages: [String] { datagrams.map(\.text) }

    /// The datagrams so far, with `WATCHDOG=1` and `EXTEND_TIMEOUT_USEC` pings left out.
    public var stateMessages: [String] {
        messages.filter { !$0.hasPrefix("WATCHDOG=1") && !$0.hasPrefix("EXTEND_TIMEOUT_USEC=") }
    }

    /// How many messages so far start with `prefix`.
    public func count(startingWith prefix: String) -> Int {
        messages.filter { $0.hasPrefix(prefix) }.count
    }

    /// The next datagram not yet handed out by this method, waiting up to `timeout` for
    /// it to arrive; nil if none does. Blocks the calling thread (woken by the reader when
    /// the datagram arrives): for synchronous tests.
    public func next(timeout: Duration = .seconds(10)) -> Datagram? {
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        return received.locked {
            while received.datagrams.count <= received.taken {
                guard received.condition.wait(until: deadline) else { return nil }
            }
            received.taken += 1
            return received.datagrams[received.taken - 1]
        }
    }

    /// Whether a datagram not yet handed out by ``next(timeout:)`` arrived, counting every
    /// one sent before this call (it drains first; blocks the calling thread up to
    /// `timeout` for that).
    public func hasUnread(timeout: Duration = .seconds(10)) throws -> Bool {
        let marker = try sendMarker(timeout: timeout)
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        return try received.locked {
            while !received.markers.contains(marker) {
                guard received.condition.wait(until: deadline) else { throw TestFailure("the notify reader never reached its drain marker") }
            }
            return received.datagrams.count > received.taken
        }
    }

    /// Waits until every datagram sent to the socket before this call has been read: it
    /// sends a marker to itself and waits for the reader to reach it (a socket's queue is
    /// first in, first out). Call it once hived has exited to see its last notifications.
    public func drain(timeout: Duration = .seconds(20)) async throws {
        let marker = try sendMarker(timeout: timeout)
        try await waitUntil("the notify reader to reach the drain marker", timeout: timeout, wakingOn: self) {
            received.locked { received.markers.contains(marker) }
        }
    }

    /// Sends a fresh drain marker to the socket and returns it. The queue may be full (a
    /// test that stalls hived's notifications fills it): then it waits, in a blocking
    /// `sendto` bounded by `timeout`, for the reader to make room.
    private func sendMarker(timeout: Duration) throws -> String {
        let marker = Self.markerPrefix + UUID().uuidString
        let sender = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard sender >= 0 else { throw TestFailure("socket: errno \(errno)") }
        defer { close(sender) }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(sender, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        while true {
            let sent = UnixAddress.with(path) { target, length in
                marker.withCString { sendto(sender, $0, strlen($0), 0, target, length) }
            }
            if sent >= 0 { return marker }
            guard errno == EINTR else { throw TestFailure("sending the drain marker to \(path): errno \(errno)") }
        }
    }

    /// Waits until a datagram satisfying `predicate` has arrived after the first `skip`
    /// ones; returns its index, or fails after `timeout`.
    @discardableResult
    public func waitFor(
        after skip: Int = 0, timeout: Duration = .seconds(20),
        _ what: String, where predicate: (String) -> Bool
    ) async throws -> Int {
        var found: Int?
        try await waitUntil(what, timeout: timeout, wakingOn: self, detail: { "got \(self.messages)" }) {
            let all = messages
            found = all.count > skip ? all[skip...].firstIndex(where: predicate) : nil
            return found != nil
        }
        return found!
    }

    /// Waits until `n` messages starting with `prefix` have arrived; returns them.
    @discardableResult
    public func waitForCount(_ n: Int, startingWith prefix: String, timeout: Duration = .seconds(20)) async throws -> [String] {
        var matching: [String] = []
        try await waitUntil("\(n)× \(prefix)", timeout: timeout, wakingOn: self, detail: { "got \(self.messages)" }) {
            matching = messages.filter { $0.hasPrefix(prefix) }
            return matching.count >= n
        }
        return matching
    }

    /// `CLOCK_REALTIME` now, the clock of ``Datagram/received``: take it just before
    /// `kill(2)` and compare it with the kernel's receive time of hived's last datagram to
    /// time a stop exactly, however late this process gets to look.
    public static func realtimeNow() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }
}
