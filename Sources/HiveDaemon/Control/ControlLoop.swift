#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import HiveKit
import Logging

/// The control socket's thread: `poll(2)` over the listening socket, the wakeup and
/// every client. Owns the connections; nothing here blocks (every descriptor is
/// non-blocking) and nothing else touches them.
final class ControlLoop {
    private static let readHangUp = Int16(0x2000)  // POLLRDHUP, which Glibc does not import

    let server: ControlServer
    let listener: Int32
    var connections: [ControlConnection] = []
    var subscribers = 0
    private var nextID: UInt64 = 1
    /// A descriptor held in reserve (`/dev/null`; -1 when it could not be had). Out of
    /// descriptors, it is closed to accept one waiting connection, answer it `Unavailable`
    /// and close it, then opened again: the listener's backlog drains rather than staying
    /// readable, and the client learns why (nginx and libuv do the same).
    var spare: Int32 = -1
    /// Until when the listener is not polled (monotonic nanoseconds), after `accept` failed
    /// for want of descriptors or memory and the spare could not help.
    var listenerPausedUntil: UInt64?
    /// Since when `accept` fails for want of resources (monotonic nanoseconds), and how
    /// many connections were turned away meanwhile; `nil` while it works.
    var shortage: (since: UInt64, turnedAway: Int)?
    /// One warning per ``ControlServer/warningInterval`` for each recurring trouble.
    var turnedAwayLog = LogThrottle(interval: ControlServer.warningInterval)
    var refusedLog = LogThrottle(interval: ControlServer.warningInterval)
    var idleLog = LogThrottle(interval: ControlServer.warningInterval)
    var shortageLog = LogThrottle(interval: ControlServer.warningInterval)
    private var pollLog = LogThrottle(interval: ControlServer.warningInterval)
    /// The deadline the loop is woken at, and its timer.
    private var alarm: (deadline: UInt64, id: UInt64)?
    /// Where `recv` reads; allocated at the first read, not at start-up.
    lazy var scratchBuffer = [UInt8](repeating: 0, count: 16 << 10)

    init(server: ControlServer, listener: Int32) {
        self.server = server
        self.listener = listener
    }

    /// Runs until the server stops.
    func run() {
        spare = Self.openSpare()
        var descriptors: [pollfd] = []
        while !server.isStopped {
            let polled = connections
            if let until = listenerPausedUntil, until <= MonotonicClock.nanoseconds() { listenerPausedUntil = nil }
            descriptors.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: server.wake.fileDescriptor, events: Int16(POLLIN), revents: 0))
            // A negative descriptor is left out by poll: the listener while paused.
            descriptors.append(pollfd(fd: listenerPausedUntil == nil ? listener : -1, events: Int16(POLLIN), revents: 0))
            for connection in polled {
                descriptors.append(pollfd(fd: connection.descriptor, events: events(of: connection), revents: 0))
            }
            setAlarm()
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            guard !server.isStopped else { break }
            if ready < 0 {
                let code = errno
                guard code != EINTR else { continue }
                // Out of memory for the poll table: wait rather than fail again at once.
                if let unlogged = pollLog.admit() {
                    server.logger.error("control socket: poll: \(String(cString: strerror(code)))\(Self.since(unlogged, "more failures"))")
                }
                usleep(100_000)
                continue
            }
            if descriptors[0].revents != 0 {
                server.wake.drain()
                deliverReplies()
                deliverNotices()
            }
            if descriptors[1].revents != 0 { acceptAll() }
            for (index, connection) in polled.enumerated() where descriptors[index + 2].revents != 0 {
                serve(connection, events: descriptors[index + 2].revents)
            }
            expireDeadlines()
            connections.removeAll { $0.isClosed }
        }
        // What the event loop handed over last (the stop's own events, a last reply) goes
        // out before the connections close, as far as their sockets take it now.
        deliverReplies()
        deliverNotices()
        for connection in connections where !connection.isClosed { Glibc.close(connection.descriptor) }
        if subscribers > 0 { server.service.subscription.observe(false) }
        if let alarm { DeadlineTimer.shared.cancel(alarm.id) }
        if spare >= 0 { Glibc.close(spare) }
        Glibc.close(listener)
        server.markEnded()
    }

    private func events(of connection: ControlConnection) -> Int16 {
        var events = connection.pendingOutput > 0 ? Int16(POLLOUT) : 0
        if connection.readClosed { return events }
        switch connection.activity {
        case .idle: if connection.pendingOutput == 0 { events |= Int16(POLLIN) }
        case .refused: events |= Int16(POLLIN)
        // A client that shut down its sending side stays readable for good: only its
        // full hang-up (POLLHUP, always reported) is waited for then.
        case .waiting, .streaming: if connection.peerShutDown { return events }
        }
        return events | Self.readHangUp
    }

    /// Has the process's ``DeadlineTimer`` wake the loop at its next deadline (a refused
    /// connection's, an idle one's, the listener's pause), replacing the alarm set for a
    /// later one; the loop itself waits in `poll` without a timeout.
    private func setAlarm() {
        var next = listenerPausedUntil ?? .max
        for connection in connections {
            switch connection.activity {
            case .refused(let deadline): next = min(next, deadline)
            case .idle: next = min(next, connection.idleSince &+ ControlServer.idleTimeout)
            case .waiting, .streaming: break
            }
        }
        let now = MonotonicClock.nanoseconds()
        if let alarm, alarm.deadline <= now { self.alarm = nil }
        guard next != .max, next != alarm?.deadline else { return }
        if let alarm { DeadlineTimer.shared.cancel(alarm.id) }
        let wake = server.wake
        let id = DeadlineTimer.shared.run(after: .nanoseconds(Int64(clamping: next &- min(next, now)))) { wake.signal() }
        alarm = (next, id)
    }

    /// Closes refused connections past their deadline, and connections that sent no
    /// complete call within ``ControlServer/idleTimeout``.
    private func expireDeadlines() {
        let now = MonotonicClock.nanoseconds()
        for connection in connections where !connection.isClosed {
            switch connection.activity {
            case .refused(let deadline):
                if deadline <= now { close(connection) }
            case .idle:
                if now &- connection.idleSince >= ControlServer.idleTimeout { closeIdle(connection) }
            case .waiting, .streaming:
                break
            }
        }
    }

    /// Closes a connection that sent no complete call in time (counted; logged at most
    /// once per ``ControlServer/warningInterval``), so idle or slow clients cannot hold
    /// every slot.
    private func closeIdle(_ connection: ControlConnection) {
        server.statistics.idle.add(1, ordering: .relaxed)
        if let unlogged = idleLog.admit() {
            let seconds = ControlServer.idleTimeout / 1_000_000_000
            server.logger.notice(
                "control socket: closed the connection of \(connection.peer): no complete call within \(seconds) s\(Self.since(unlogged, "more closed"))",
                metadata: ["uid": "\(connection.peer.uid)", "pid": "\(connection.peer.pid)"])
        }
        close(connection)
    }

    /// `; N WHAT since the last message`, or nothing for 0.
    static func since(_ count: Int, _ what: String) -> String {
        count > 0 ? "; \(count) \(what) since the last message" : ""
    }

    func takeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    // MARK: Closing

    /// Closes a connection (it is dropped from the list after this round).
    func close(_ connection: ControlConnection) {
        guard !connection.isClosed else { return }
        connection.isClosed = true
        Glibc.close(connection.descriptor)
        if connection.activity == .streaming {
            subscribers -= 1
            if subscribers == 0 { server.service.subscription.observe(false) }
        }
    }

    /// Closes a connection that broke the protocol.
    func reject(_ connection: ControlConnection, _ reason: String) {
        server.statistics.malformed.add(1, ordering: .relaxed)
        server.logger.notice(
            "control socket: closed the connection of \(connection.peer): \(reason)",
            metadata: ["uid": "\(connection.peer.uid)", "pid": "\(connection.peer.pid)"])
        close(connection)
    }
}
