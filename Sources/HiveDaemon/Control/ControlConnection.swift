/// One client of the control socket, owned by the socket's thread: its buffers and
/// where its current call stands. Varlink answers calls in order, so a connection
/// reads its next call only once the previous one is answered and its reply written.
final class ControlConnection {
    /// What the connection is doing.
    enum Activity: Equatable {
        /// Waiting for (or reading) its next call.
        case idle
        /// A call goes through the daemon's queue; its reply comes later (dropped if `oneway`).
        case waiting(oneway: Bool)
        /// Subscribed: replies stream until the client hangs up.
        case streaming
        /// Refused (not allowed): the error is written, the connection closes at the
        /// client's first message, its hang-up, or the deadline (monotonic nanoseconds).
        case refused(deadline: UInt64)
    }

    /// Unique for the process's lifetime (descriptors are reused; ids are not).
    let id: UInt64
    let descriptor: Int32
    let peer: PeerCredentials
    var activity: Activity = .idle
    /// Bytes read and not yet consumed, from ``inputStart``.
    var input: [UInt8] = []
    var inputStart = 0
    /// Where the search for the next NUL resumes.
    var scanned = 0
    /// Bytes to write, from ``outputStart``.
    var output: [UInt8] = []
    var outputStart = 0
    /// For a subscriber: the sequence number of the next notice to send it
    /// (``ControlSubscription/notices(from:limit:)``).
    var cursor: UInt64 = 0
    /// When the connection began to wait for its next call (accepted, or its last call
    /// answered), in monotonic nanoseconds: it must send a complete call within
    /// ``ControlServer/idleTimeout`` of it.
    var idleSince: UInt64
    /// The client shut down its sending side: answer what arrived, then close.
    var readClosed = false
    /// The client shut down its sending side while a call was under way or it was
    /// subscribed (`POLLRDHUP`): its reply or stream still goes out; what it sent before
    /// is read once it is idle again.
    var peerShutDown = false
    var isClosed = false

    init(id: UInt64, descriptor: Int32, peer: PeerCredentials, now: UInt64) {
        self.id = id
        self.descriptor = descriptor
        self.peer = peer
        self.idleSince = now
    }

    /// Bytes waiting to be written.
    var pendingOutput: Int { output.count - outputStart }

    /// Bytes read but not yet consumed.
    var pendingInput: Int { input.count - inputStart }

    /// Queues bytes to write. What was written is dropped once it is most of the buffer, so
    /// a client that reads steadily but never quite catches up (a subscriber) does not
    /// grow it without end.
    func queue(_ bytes: [UInt8]) {
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 1 << 16)
            outputStart = 0
        } else if outputStart >= 1 << 16, outputStart * 2 >= output.count {
            output.removeSubrange(0..<outputStart)
            outputStart = 0
        }
        output.append(contentsOf: bytes)
    }

    /// The next complete message (without its NUL), if one has arrived.
    func nextMessage() -> ArraySlice<UInt8>? {
        guard let nul = input[max(scanned, inputStart)...].firstIndex(of: 0) else {
            scanned = input.count
            return nil
        }
        let message = input[inputStart..<nul]
        inputStart = nul + 1
        scanned = inputStart
        if inputStart == input.count {
            input.removeAll(keepingCapacity: input.capacity <= 1 << 16)
            inputStart = 0
            scanned = 0
        }
        return message
    }

    /// Drops consumed input once it is most of the buffer.
    func compactInput() {
        guard inputStart > 0, inputStart * 2 >= input.count else { return }
        input.removeSubrange(0..<inputStart)
        scanned -= inputStart
        inputStart = 0
    }
}
