import Dispatch
import HiveDaemon
import HiveKit
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The `echo-server`'s I/O: accepts clients on a listening socket and serves each with an
/// ``EchoConnection``, all on one serial Dispatch queue that only ever waits in the kernel
/// for readiness (no thread blocks on a client, none spins).
///
/// With a descriptor store, every accepted connection is stored before it is served, and
/// removed from the store when the client leaves, so a restarted process can go on
/// serving the very same connections.
///
/// `@unchecked Sendable`: `connections`, `listener`, `isAcceptPaused`, `shortage` and
/// `shortageLog` are touched only on `queue`, a serial queue: the source handlers run there
/// and the methods hop onto it. The other properties are constants.
final class EchoServer: @unchecked Sendable {
    /// At most this many connections are accepted per readiness event, so a busy listener
    /// cannot starve the connections' reads.
    private static let acceptBurst = 64

    private let queue: DispatchQueue
    private let logger: Logger
    /// Where connections are stored; nil when there is no store.
    private let sockets: ModuleSockets?
    private var connections: [ObjectIdentifier: EchoConnection] = [:]
    private var listener: DispatchSourceRead?
    private var isAcceptPaused = false
    /// Since when `accept` fails for want of descriptors or memory (monotonic
    /// nanoseconds), and how many times it failed; `nil` while it works.
    private var shortage: (since: UInt64, failures: Int)?
    /// One warning per 10 s while `accept` keeps failing.
    private var shortageLog = LogThrottle(interval: .seconds(10))
    /// Accepted connections on their way to the store, in order.
    private let accepted: AsyncStream<Int32>.Continuation
    private var storing: Task<Void, Never>?

    /// A server for the module `module`, logging to `logger`; with `sockets` it keeps its
    /// connections in the descriptor store.
    init(module: String, logger: Logger, sockets: ModuleSockets?) {
        self.queue = DispatchQueue(label: "hived.echo-server.\(module)")
        self.logger = logger
        self.sockets = sockets
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.accepted = continuation
        // One task stores accepted connections one after another (the first store may ask
        // systemd whether there is a store), and each is served only once stored: so a
        // connection is never removed from the store before it was put there. The task
        // holds the server until ``stopAccepting()`` ends the stream.
        self.storing = Task { [self] in
            var warned = false
            for await descriptor in stream {
                let name = EchoConnection.storeName(of: descriptor)
                do {
                    try await sockets?.store(descriptor, as: name)
                } catch {
                    if !warned { logger.warning("connections will not survive a restart: \(error)") }
                    warned = true
                }
                queue.async { self.serve(descriptor, name: name) }
            }
        }
    }

    /// Accepts clients on `descriptor`, a listening socket, which the server now owns; a
    /// listener already in use is closed.
    func listen(on descriptor: Int32) async {
        await onQueue { [self] in
            stopListening()
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [self] in acceptAvailable(descriptor) }
            source.setCancelHandler { close(descriptor) }
            listener = source
            isAcceptPaused = false
            source.activate()
        }
    }

    /// Serves a connection this module stored before the process restarted (it stays
    /// stored), first writing out and taking up what the last process left `unfinished`.
    func resume(_ descriptor: Int32, name: String, unfinished: UnfinishedBytes) async {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        await onQueue { [self] in serve(descriptor, name: name, unfinished: unfinished) }
    }

    /// Stops accepting (the listener is closed here; a copy in the store or the socket
    /// unit keeps it open for the next process) and returns once every accepted connection
    /// was stored. Connections are still served.
    func stopAccepting() async {
        await onQueue { [self] in stopListening() }
        accepted.finish()
        await storing?.value
        storing = nil
    }

    /// Stops serving: closes every connection's descriptor in this process, leaving the
    /// store alone (a restart finds them there). What a connection had not finished (output
    /// the client has not taken, the start of a line) goes to the store beside it, so the
    /// next process goes on where this one stopped; nothing here waits on a client.
    func shutDown() async {
        await stopAccepting()
        let left = await onQueue { [self] in
            defer { connections.removeAll() }
            return connections.values.map { ($0.name, $0.shutDown()) }.filter { !$0.1.isEmpty }
        }
        guard let sockets else { return }
        for (name, unfinished) in left {
            await carry(unfinished, of: name, in: sockets)
        }
    }

    /// Stores `unfinished`, what the connection stored as `name` had not finished.
    private func carry(_ unfinished: UnfinishedBytes, of name: String, in sockets: ModuleSockets) async {
        let size = "\(unfinished.output.count) bytes to write, \(unfinished.input.count) of a line"
        do {
            let file = try unfinished.file()
            defer { close(file) }
            try await sockets.store(file, as: UnfinishedBytes.storeName(forConnection: name))
            logger.debug("carried to the next process: \(size)", metadata: ["connection": "\(name)"])
        } catch {
            let why = (error as? HiveError)?.message ?? "\(error)"
            logger.warning("lost at this stop: \(size) (\(why))", metadata: ["connection": "\(name)"])
        }
    }

    private func serve(_ descriptor: Int32, name: String, unfinished: UnfinishedBytes = UnfinishedBytes()) {
        let connection = EchoConnection(
            descriptor: descriptor, name: name, queue: queue, unfinished: unfinished
        ) { [self] ended in
            connections[ObjectIdentifier(ended)] = nil
            sockets?.removeStored(ended.name)
            logger.debug("client left", metadata: ["connection": "\(ended.name)"])
        }
        connections[ObjectIdentifier(connection)] = connection
        connection.start()
    }

    private func acceptAvailable(_ descriptor: Int32) {
        for _ in 0..<Self.acceptBurst {
            let client = accept(descriptor, nil, nil)
            if client >= 0 {
                if let shortage { endShortage(shortage) }
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                if case .terminated = accepted.yield(client) { close(client) }
                continue
            }
            switch errno {
            case EAGAIN, EWOULDBLOCK:
                return
            case EINTR, ECONNABORTED, EPROTO:
                continue
            default:
                // Out of descriptors or memory: a level-triggered source would fire again at
                // once, so pause accepting for a moment instead of spinning.
                noteShortage(errno)
                pauseAccepting()
                return
            }
        }
    }

    /// Logs that `accept` fails: at once the first time, then at most once per 10 s while
    /// it lasts, with how many attempts failed. Call on `queue`.
    private func noteShortage(_ code: Int32) {
        let now = MonotonicClock.nanoseconds()
        let ongoing = shortage ?? (since: now, failures: 0)
        shortage = (ongoing.since, ongoing.failures + 1)
        guard shortageLog.admit(now: now) != nil else { return }
        let cause = "\(DescriptorShortage.describe(code)) (errno \(code))"
        if ongoing.failures == 0 {
            logger.error("cannot accept a client: \(cause); retrying every 100 ms until it is over")
        } else {
            let seconds = (now &- ongoing.since) / 1_000_000_000
            logger.error("still cannot accept a client after \(seconds) s: \(cause); \(ongoing.failures + 1) attempts failed")
        }
    }

    /// Logs that `accept` works again. Call on `queue`.
    private func endShortage(_ ended: (since: UInt64, failures: Int)) {
        let milliseconds = (MonotonicClock.nanoseconds() &- ended.since) / 1_000_000
        logger.notice("accepting clients again after \(milliseconds) ms; \(ended.failures) attempts failed meanwhile")
        shortage = nil
        _ = shortageLog.reset()
    }

    /// Suspends the accept source for 100 ms. Call on `queue`.
    private func pauseAccepting() {
        guard let listener, !isAcceptPaused else { return }
        listener.suspend()
        isAcceptPaused = true
        queue.asyncAfter(deadline: .now() + .milliseconds(100)) { [self] in
            // A listener replaced or stopped meanwhile was resumed then.
            guard isAcceptPaused, let listener = self.listener else { return }
            isAcceptPaused = false
            listener.resume()
            // Try at once: the source reports a listener that became readable, and one that
            // stayed readable through the pause (clients waiting all along) need not fire again.
            acceptAvailable(Int32(listener.handle))
        }
    }

    /// Cancels the accept source, which closes the listener. Call on `queue`.
    private func stopListening() {
        guard let source = listener else { return }
        if isAcceptPaused { source.resume() }
        isAcceptPaused = false
        source.cancel()
        listener = nil
    }

    private func onQueue<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { (done: CheckedContinuation<Value, Never>) in
            queue.async { done.resume(returning: body()) }
        }
    }
}
