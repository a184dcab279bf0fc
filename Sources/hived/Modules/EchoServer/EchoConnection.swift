import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// One client of the `echo-server`: reads what the client sends and writes every complete
/// line back, without ever blocking (non-blocking socket, Dispatch read and write sources
/// on the server's serial queue).
///
/// `@unchecked Sendable`: every mutable property is touched only on `queue`, a serial
/// queue; the sources' handlers run there, and the server calls in through `queue`.
final class EchoConnection: @unchecked Sendable {
    /// A line longer than this is echoed as it is, so a client cannot grow the buffer forever.
    static let maximumLine = 64 * 1024
    /// Past this much unsent output the connection stops reading until the client reads.
    static let maximumPending = 256 * 1024

    let descriptor: Int32
    /// The connection's name in the descriptor store (`connection.INODE`).
    let name: String
    private let queue: DispatchQueue
    /// Called on `queue` when the client is gone or failed (not when the server shuts down).
    private let ended: (EchoConnection) -> Void

    private var reader: DispatchSourceRead?
    private var writer: DispatchSourceWrite?
    private var isReadingPaused = false
    private var isWriterRunning = false
    private var liveSources = 0
    private var isClosing = false
    private var input: [UInt8] = []
    private var pending: [UInt8] = []
    private var pendingStart = 0

    /// A connection on `descriptor` (non-blocking), served on `queue` once ``start()`` runs;
    /// `unfinished` is what the previous process left of it (its output goes out first).
    init(
        descriptor: Int32, name: String, queue: DispatchQueue, unfinished: UnfinishedBytes = UnfinishedBytes(),
        ended: @escaping (EchoConnection) -> Void
    ) {
        self.descriptor = descriptor
        self.name = name
        self.queue = queue
        self.ended = ended
        self.pending = unfinished.output
        self.input = unfinished.input
    }

    /// The name a connection on `descriptor` has in the store: `connection.` and the
    /// socket's inode number, which stays the same across restarts while the socket lives.
    static func storeName(of descriptor: Int32) -> String {
        var info = stat()
        fstat(descriptor, &info)
        return "connection.\(info.st_ino)"
    }

    /// Starts reading. Call on `queue`.
    func start() {
        let reader = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        reader.setEventHandler { [self] in readAvailable() }
        reader.setCancelHandler { [self] in sourceCancelled() }
        self.reader = reader
        liveSources += 1
        reader.activate()
        if !pending.isEmpty { flush() }
    }

    /// Stops serving and closes this process's descriptor, without telling anyone: the
    /// server is shutting down (a copy in the descriptor store keeps the connection open).
    /// Reads nothing more (what the client sends next waits in the socket for the next
    /// process), writes what the socket takes now without waiting, and returns what is
    /// left: output not written, and input after the last complete line. Call on `queue`.
    func shutDown() -> UnfinishedBytes {
        guard !isClosing else { return UnfinishedBytes() }
        isClosing = true
        let isAlive = flush()
        let unfinished = isAlive ? UnfinishedBytes(output: Array(pending[pendingStart...]), input: input) : UnfinishedBytes()
        closeSources()
        return unfinished
    }

    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count > 0 {
            input.append(contentsOf: buffer[..<count])
            echoLines()
        } else if count == 0 {
            finish()
        } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
            finish()
        }
    }

    /// Moves every complete line (or an over-long partial one) from `input` to the output.
    private func echoLines() {
        let end: Int
        if let newline = input.lastIndex(of: UInt8(ascii: "\n")) {
            end = newline + 1
        } else if input.count >= Self.maximumLine {
            end = input.count
        } else {
            return
        }
        pending.append(contentsOf: input[..<end])
        input.removeFirst(end)
        flush()
    }

    /// Writes what it can of the output; waits for writability (a write source) for the rest.
    /// Returns false when the connection failed (and was finished).
    @discardableResult
    private func flush() -> Bool {
        while pendingStart < pending.count {
            let sent = pending.withUnsafeBytes { bytes in
                send(descriptor, bytes.baseAddress! + pendingStart, bytes.count - pendingStart,
                     Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if sent > 0 {
                pendingStart += sent
            } else if sent < 0 && errno == EINTR {
                continue
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                finish()
                return false
            }
        }
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        }
        let waiting = pending.count - pendingStart
        guard !isClosing else { return true }
        setWriter(running: waiting > 0)
        setReading(paused: waiting > Self.maximumPending)
        return true
    }

    private func setWriter(running: Bool) {
        guard running != isWriterRunning else { return }
        if running {
            if writer == nil {
                let writer = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
                writer.setEventHandler { [self] in flush() }
                writer.setCancelHandler { [self] in sourceCancelled() }
                self.writer = writer
                liveSources += 1
                writer.activate()
            } else {
                writer?.resume()
            }
        } else {
            writer?.suspend()
        }
        isWriterRunning = running
    }

    private func setReading(paused: Bool) {
        guard paused != isReadingPaused else { return }
        if paused { reader?.suspend() } else { reader?.resume() }
        isReadingPaused = paused
    }

    /// The client is gone (or failed): tell the server, then close.
    private func finish() {
        guard !isClosing else { return }
        ended(self)
        closeSources()
    }

    /// Cancels the sources; the descriptor is closed once both cancel handlers ran.
    private func closeSources() {
        isClosing = true
        // A suspended source runs its cancel handler only once resumed.
        if isReadingPaused { reader?.resume() }
        if writer != nil, !isWriterRunning { writer?.resume() }
        isReadingPaused = false
        isWriterRunning = true
        reader?.cancel()
        writer?.cancel()
        if liveSources == 0 { close(descriptor) }
    }

    private func sourceCancelled() {
        liveSources -= 1
        if liveSources == 0, isClosing {
            reader = nil
            writer = nil
            close(descriptor)
        }
    }
}
