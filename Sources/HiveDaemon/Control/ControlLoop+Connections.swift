#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import HiveKit
import Logging

extension ControlLoop {
    /// Reads, writes or closes `connection` as `poll` reported.
    func serve(_ connection: ControlConnection, events: Int16) {
        guard !connection.isClosed else { return }
        if events & Int16(POLLERR | POLLNVAL) != 0 { return close(connection) }
        if events & Int16(POLLOUT) != 0 {
            flush(connection)
            switch connection.activity {
            case .idle: answerCalls(connection)
            case .streaming: feed(connection)
            case .waiting, .refused: break
            }
        }
        guard !connection.isClosed, events & ~Int16(POLLOUT) != 0 else { return }
        switch connection.activity {
        case .idle, .refused:
            read(connection)
        case .waiting, .streaming:
            // Only a hang-up is polled for while a call is under way or a stream goes on. A
            // client gone for good (POLLHUP) is closed; one that only shut down its sending
            // side (`socat`, `nc -N` once their input ends) still gets its reply or stream.
            if events & Int16(POLLHUP) != 0 { return close(connection) }
            connection.peerShutDown = true
        }
    }

    /// Reads what is available, then answers the complete calls.
    private func read(_ connection: ControlConnection) {
        while !connection.readClosed {
            let count = recv(connection.descriptor, &scratchBuffer, scratchBuffer.count, Int32(MSG_DONTWAIT))
            if count > 0 {
                if case .refused = connection.activity {
                    // The refusal is written; the first message (or hang-up) ends it.
                    if scratchBuffer[0..<count].contains(0) { return close(connection) }
                    continue
                }
                connection.input.append(contentsOf: scratchBuffer[0..<count])
                if connection.pendingInput > ControlServer.maximumMessage + scratchBuffer.count { break }
                continue
            }
            if count == 0 {
                connection.readClosed = true
            } else if errno == EINTR {
                continue
            } else if errno != EAGAIN && errno != EWOULDBLOCK {
                return close(connection)
            }
            break
        }
        if case .refused = connection.activity {
            if connection.readClosed { close(connection) }
            return
        }
        answerCalls(connection)
    }

    /// Answers complete calls in order while the connection is idle and its replies are
    /// written; closes it on a protocol error, or once a client that stopped sending
    /// has its answers.
    func answerCalls(_ connection: ControlConnection) {
        while !connection.isClosed, connection.activity == .idle, connection.pendingOutput == 0 {
            guard let message = connection.nextMessage() else { break }
            guard message.count <= ControlServer.maximumMessage else {
                return reject(connection, "a message over 1 MiB")
            }
            answer(message, on: connection)
            flush(connection)
        }
        guard !connection.isClosed else { return }
        connection.compactInput()
        if connection.activity == .idle, connection.pendingInput > ControlServer.maximumMessage {
            return reject(connection, "a message over 1 MiB")
        }
        if connection.readClosed, connection.activity == .idle, connection.pendingOutput == 0 {
            if connection.pendingInput > 0 {
                reject(connection, "the last message has no NUL terminator")
            } else {
                close(connection)
            }
        }
    }

    private func answer(_ message: ArraySlice<UInt8>, on connection: ControlConnection) {
        let call: VarlinkCall
        do {
            call = try VarlinkCall(parsing: Data(message))
        } catch {
            return reject(connection, "\(error)")
        }
        switch server.service.answer(call, connection: connection.id, server: server) {
        case .reply(let bytes):
            if !call.oneway { connection.queue(bytes) }
            connection.idleSince = MonotonicClock.nanoseconds()
        case .error(let error):
            if !call.oneway { connection.queue(error.encoded) }
            connection.idleSince = MonotonicClock.nanoseconds()
        case .later:
            connection.activity = .waiting(oneway: call.oneway)
        case .stream:
            connection.activity = .streaming
            subscribers += 1
            if subscribers == 1 { server.service.subscription.observe(true) }
            connection.cursor = server.service.subscription.nextSequence
        }
    }

    /// Writes what the connection can take now.
    func flush(_ connection: ControlConnection) {
        while connection.pendingOutput > 0, !connection.isClosed {
            let written = connection.output[connection.outputStart...].withUnsafeBytes { bytes in
                send(connection.descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if written > 0 {
                connection.outputStart += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                if written < 0, errno != EAGAIN, errno != EWOULDBLOCK {
                    if case .refused = connection.activity { return }
                    close(connection)
                }
                return
            }
        }
    }

    /// Hands replies from the daemon's event loop to their connections.
    func deliverReplies() {
        for (id, bytes) in server.takeReplies() {
            guard let connection = connections.first(where: { $0.id == id && !$0.isClosed }),
                case .waiting(let oneway) = connection.activity
            else { continue }
            connection.activity = .idle
            connection.idleSince = MonotonicClock.nanoseconds()
            if !oneway { connection.queue(bytes) }
            flush(connection)
            answerCalls(connection)
        }
    }

    /// Sends every subscriber the events observed since its last round.
    func deliverNotices() {
        guard subscribers > 0 else { return }
        for connection in connections where connection.activity == .streaming && !connection.isClosed {
            feed(connection)
        }
    }

    /// Encodes the notices `connection` was not sent yet, one by one while its unsent
    /// replies are under ``ControlServer/subscriberBacklog`` bytes (so they never pass it by
    /// more than one notice; the rest wait in the shared ring until its socket takes these),
    /// and writes them. Drops it if it fell so far behind that notices it was owed were
    /// overwritten (checked whether or not it has room): it alone missed them.
    func feed(_ connection: ControlConnection) {
        let subscription = server.service.subscription
        while !connection.isClosed {
            let room = connection.pendingOutput < ControlServer.subscriberBacklog
            guard let notices = subscription.notices(from: connection.cursor, limit: room ? 64 : 0) else {
                return drop(connection, """
                    it fell \(ControlSubscription.capacity) events behind: it stopped reading, or reads slower \
                    than events come (\(connection.pendingOutput) bytes unsent)
                    """)
            }
            guard !notices.isEmpty else { return }
            for notice in notices {
                connection.queue(VarlinkCoding.reply(notice, continues: true))
                connection.cursor += 1
                if connection.pendingOutput >= ControlServer.subscriberBacklog { break }
            }
            flush(connection)
        }
    }

    private func drop(_ connection: ControlConnection, _ reason: String) {
        server.statistics.droppedSubscribers.add(1, ordering: .relaxed)
        server.logger.warning(
            "control socket: dropped the subscriber \(connection.peer): \(reason)",
            metadata: ["uid": "\(connection.peer.uid)", "pid": "\(connection.peer.pid)"])
        close(connection)
    }
}
