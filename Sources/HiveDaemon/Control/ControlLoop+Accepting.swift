#if canImport(Glibc)
import Glibc
#endif
import HiveKit
import Logging

extension ControlLoop {
    /// Accepts every waiting connection. Out of descriptors, each is accepted with the
    /// spare descriptor, answered `Unavailable` and closed; when even that fails (or memory
    /// is short) the listener is left alone for ``ControlServer/acceptPause``, so a
    /// listener that stays readable is never polled in a loop.
    func acceptAll() {
        if spare < 0 { spare = Self.openSpare() }
        while true {
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else {
                let code = errno
                switch code {
                case EINTR, ECONNABORTED, EPROTO:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    return
                case EMFILE, ENFILE:
                    noteShortage(code)
                    switch turnAwayWithSpare() {
                    case .turnedAway: continue
                    case .nothingWaiting: return
                    case .failed: return pauseListener()
                    }
                default:
                    // ENOMEM, ENOBUFS, or a refusal from a security module: wait, then try again.
                    noteShortage(code)
                    return pauseListener()
                }
            }
            if let shortage { endShortage(shortage) }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            admit(descriptor)
        }
    }

    /// `/dev/null`, opened to be held in reserve; -1 when the process has no descriptor left.
    static func openSpare() -> Int32 {
        Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    private enum SpareOutcome { case turnedAway, nothingWaiting, failed }

    /// Out of descriptors: frees the spare to accept one waiting connection, answers it
    /// `Unavailable` and closes it, then takes the spare again.
    private func turnAwayWithSpare() -> SpareOutcome {
        guard spare >= 0 else { return .failed }
        Glibc.close(spare)
        let descriptor = accept(listener, nil, nil)
        let code = errno
        defer { spare = Self.openSpare() }
        guard descriptor >= 0 else {
            // Another thread may have taken the freed number first.
            return code == EAGAIN || code == EWOULDBLOCK ? .nothingWaiting : .failed
        }
        server.statistics.noDescriptor.add(1, ordering: .relaxed)
        shortage?.turnedAway += 1
        answerAndClose(descriptor, VarlinkError.unavailable(message: "the daemon is out of file descriptors"))
        return .turnedAway
    }

    private func pauseListener() {
        listenerPausedUntil = MonotonicClock.nanoseconds() &+ ControlServer.acceptPause
    }

    /// Logs that `accept` fails for want of resources: at once the first time, then at
    /// most once per ``ControlServer/warningInterval`` while it lasts, with a count.
    private func noteShortage(_ code: Int32) {
        let now = MonotonicClock.nanoseconds()
        if shortage == nil { shortage = (since: now, turnedAway: 0) }
        guard let unlogged = shortageLog.admit(now: now), let shortage else { return }
        let cause = DescriptorShortage.describe(code)
        if unlogged == 0, shortage.since == now {
            server.logger.warning(
                "control socket: cannot accept connections: \(cause); turning clients away until it is over")
        } else {
            let seconds = (now &- shortage.since) / 1_000_000_000
            server.logger.warning(
                "control socket: still cannot accept connections after \(seconds) s: \(cause); \(shortage.turnedAway) turned away so far")
        }
    }

    /// Logs that `accept` works again, with how many connections were turned away meanwhile.
    private func endShortage(_ ended: (since: UInt64, turnedAway: Int)) {
        let milliseconds = (MonotonicClock.nanoseconds() &- ended.since) / 1_000_000
        server.logger.notice(
            "control socket: accepting connections again after \(milliseconds) ms; \(ended.turnedAway) turned away meanwhile")
        shortage = nil
        _ = shortageLog.reset()
    }

    /// Serves, refuses or turns away a new connection.
    private func admit(_ descriptor: Int32) {
        guard let peer = PeerCredentials.of(descriptor) else {
            Glibc.close(descriptor)
            return
        }
        let refusedCount = connections.count { if case .refused = $0.activity { true } else { false } }
        let now = MonotonicClock.nanoseconds()
        guard server.access.allows(peer) else {
            server.statistics.denied.add(1, ordering: .relaxed)
            if let unlogged = refusedLog.admit(now: now) {
                server.logger.warning(
                    "control socket: refused \(peer): not root, the daemon's user or a member of control.group\(Self.since(unlogged, "more refused"))",
                    metadata: ["uid": "\(peer.uid)", "pid": "\(peer.pid)"])
            }
            guard refusedCount < ControlServer.maximumRefused else {
                Glibc.close(descriptor)
                return
            }
            let connection = ControlConnection(id: takeID(), descriptor: descriptor, peer: peer, now: now)
            connection.activity = .refused(deadline: now + ControlServer.refusalLinger)
            connections.append(connection)
            connection.queue(VarlinkError.permissionDenied.encoded)
            flush(connection)
            shutdown(descriptor, Int32(SHUT_WR))
            return
        }
        guard connections.count - refusedCount < ControlServer.maximumClients else {
            server.statistics.overLimit.add(1, ordering: .relaxed)
            reportTurnedAway(peer, now: now)
            answerAndClose(
                descriptor, VarlinkError.unavailable(message: "\(ControlServer.maximumClients) clients already connected"))
            return
        }
        server.statistics.accepted.add(1, ordering: .relaxed)
        connections.append(ControlConnection(id: takeID(), descriptor: descriptor, peer: peer, now: now))
    }

    /// Writes `error` if the socket takes it now, reads away what the client sent already,
    /// and closes: the client reads why before it sees the connection end. (A Unix socket
    /// closed with unread input resets its peer, whose read then fails with `ECONNRESET`
    /// and loses the answer.)
    private func answerAndClose(_ descriptor: Int32, _ error: VarlinkError) {
        let bytes = error.encoded
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        var unread = 0
        while unread < ControlServer.maximumMessage,
            case let count = recv(descriptor, &scratchBuffer, scratchBuffer.count, Int32(MSG_DONTWAIT)), count > 0
        {
            unread += count
        }
        Glibc.close(descriptor)
    }

    /// Logs a connection turned away for the client limit, at most once per
    /// ``ControlServer/warningInterval``: the connections turned away meanwhile are
    /// counted in the next message (and in `hive_control_refused_total`), so a flood of
    /// connections cannot flood the log.
    private func reportTurnedAway(_ peer: PeerCredentials, now: UInt64) {
        guard let unlogged = turnedAwayLog.admit(now: now) else { return }
        server.logger.warning(
            "control socket: turned away \(peer): \(ControlServer.maximumClients) clients already connected\(Self.since(unlogged, "more turned away"))",
            metadata: ["uid": "\(peer.uid)", "pid": "\(peer.pid)"])
    }
}
