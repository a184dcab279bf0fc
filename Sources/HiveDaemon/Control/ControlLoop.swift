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
    /// When a connection turned away for the client limit was last logged (monotonic
    /// nanoseconds), and how many were turned away since without a message.
    private var lastTurnedAwayLog: UInt64?
    private var turnedAwaySilently = 0
    /// Where `recv` reads; allocated at the first read, not at start-up.
    lazy var scratchBuffer = [UInt8](repeating: 0, count: 16 << 10)

    init(server: ControlServer, listener: Int32) {
        self.server = server
        self.listener = listener
    }

    /// Runs until the server stops.
    func run() {
        var descriptors: [pollfd] = []
        while !server.isStopped {
            let polled = connections
            descriptors.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: server.wake.fileDescriptor, events: Int16(POLLIN), revents: 0))
            descriptors.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
            for connection in polled {
                descriptors.append(pollfd(fd: connection.descriptor, events: events(of: connection), revents: 0))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout())
            guard !server.isStopped else { break }
            if ready < 0 {
                if errno != EINTR { server.logger.error("control socket: poll: \(String(cString: strerror(errno)))") }
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
            expireRefusals()
            connections.removeAll { $0.isClosed }
        }
        // What the event loop handed over last (the stop's own events, a last reply) goes
        // out before the connections close, as far as their sockets take it now.
        deliverReplies()
        deliverNotices()
        for connection in connections where !connection.isClosed { Glibc.close(connection.descriptor) }
        if subscribers > 0 { server.service.subscription.observe(false) }
        Glibc.close(listener)
        server.markEnded()
    }

    private func events(of connection: ControlConnection) -> Int16 {
        var events = connection.pendingOutput > 0 ? Int16(POLLOUT) : 0
        if connection.readClosed { return events }
        switch connection.activity {
        case .idle: if connection.pendingOutput == 0 { events |= Int16(POLLIN) }
        case .refused: events |= Int16(POLLIN)
        case .waiting, .streaming: break
        }
        return events | Self.readHangUp
    }

    /// Milliseconds until the next refused connection expires; -1 for none.
    private func timeout() -> Int32 {
        let deadlines = connections.compactMap { connection -> UInt64? in
            if case .refused(let deadline) = connection.activity { return deadline }
            return nil
        }
        guard let next = deadlines.min() else { return -1 }
        let now = MonotonicClock.nanoseconds()
        return next <= now ? 0 : Int32(clamping: (next - now) / 1_000_000 + 1)
    }

    private func expireRefusals() {
        let now = MonotonicClock.nanoseconds()
        for connection in connections {
            if case .refused(let deadline) = connection.activity, deadline <= now { close(connection) }
        }
    }

    // MARK: Accepting

    private func acceptAll() {
        while true {
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK {
                    server.logger.error("control socket: accept: \(String(cString: strerror(errno)))")
                }
                return
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            admit(descriptor)
        }
    }

    /// Serves, refuses or turns away a new connection.
    private func admit(_ descriptor: Int32) {
        guard let peer = PeerCredentials.of(descriptor) else {
            Glibc.close(descriptor)
            return
        }
        let refusedCount = connections.count { if case .refused = $0.activity { true } else { false } }
        guard server.access.allows(peer) else {
            server.statistics.denied.add(1, ordering: .relaxed)
            server.logger.warning(
                "control socket: refused \(peer): not root, the daemon's user or a member of control.group",
                metadata: ["uid": "\(peer.uid)", "pid": "\(peer.pid)"])
            guard refusedCount < ControlServer.maximumRefused else {
                Glibc.close(descriptor)
                return
            }
            let connection = ControlConnection(id: takeID(), descriptor: descriptor, peer: peer)
            connection.activity = .refused(deadline: MonotonicClock.nanoseconds() + ControlServer.refusalLinger)
            connections.append(connection)
            connection.queue(VarlinkError.permissionDenied.encoded)
            flush(connection)
            shutdown(descriptor, Int32(SHUT_WR))
            return
        }
        guard connections.count - refusedCount < ControlServer.maximumClients else {
            server.statistics.overLimit.add(1, ordering: .relaxed)
            reportTurnedAway(peer)
            Glibc.close(descriptor)
            return
        }
        server.statistics.accepted.add(1, ordering: .relaxed)
        connections.append(ControlConnection(id: takeID(), descriptor: descriptor, peer: peer))
    }

    /// Logs a connection turned away for the client limit, at most once per
    /// ``ControlServer/turnedAwayLogInterval``: the connections turned away meanwhile are
    /// counted in the next message (and in `hive_control_refused_total`), so a flood of
    /// connections cannot flood the log.
    private func reportTurnedAway(_ peer: PeerCredentials) {
        let now = MonotonicClock.nanoseconds()
        if let last = lastTurnedAwayLog, now &- last < ControlServer.turnedAwayLogInterval {
            turnedAwaySilently += 1
            return
        }
        let more = turnedAwaySilently > 0 ? "; \(turnedAwaySilently) more turned away since the last message" : ""
        server.logger.warning(
            "control socket: turned away \(peer): \(ControlServer.maximumClients) clients already connected\(more)",
            metadata: ["uid": "\(peer.uid)", "pid": "\(peer.pid)"])
        lastTurnedAwayLog = now
        turnedAwaySilently = 0
    }

    private func takeID() -> UInt64 {
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
