import Foundation
import TestSupport

/// A bare Unix-socket client for the control tests that break the protocol on purpose
/// (garbage, no NUL, oversize, a subscriber that never reads).
final class RawControlClient {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to `path`; throws on failure.
    init(_ path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: \(errno)") }
        let connected = UnixAddress.with(path) { connect(descriptor, $0, $1) }
        // No close here on failure: an initializer that throws once every stored property is
        // set still runs deinit, which closes it (closing twice closed another test's
        // descriptor of the same number: a soak saw a pipe's read end vanish).
        guard connected == 0 else { throw TestFailure("connect \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Writes `bytes` completely (blocking); false if the daemon closed the connection.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Writes a call of `method` with `parameters` (JSON text), NUL-terminated.
    @discardableResult
    func call(_ method: String, _ parameters: String = "{}", more: Bool = false) -> Bool {
        write(Array("{\"method\":\"\(method)\",\"parameters\":\(parameters)\(more ? ",\"more\":true" : "")}".utf8) + [0])
    }

    enum Received {
        case message([String: Any])
        case closed
        case timedOut
    }

    /// The next NUL-terminated message, or whether the daemon closed the connection.
    func receive(timeout: Duration = .seconds(10)) -> Received {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let nul = buffer.firstIndex(of: 0) {
                let message = Data(buffer[..<nul])
                buffer.removeSubrange(...nul)
                let object = (try? JSONSerialization.jsonObject(with: message)) as? [String: Any] ?? [:]
                return .message(object)
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return .timedOut }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&descriptors, 1, max(milliseconds, 1)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 {
                if count < 0, errno == EINTR { continue }
                return .closed
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Whether the daemon turned this connection away: `io.hivekit.Daemon.Unavailable`
    /// whose message contains `reason`, then the connection closed.
    func isTurnedAway(because reason: String) -> Bool {
        guard case .message(let object) = receive(), object["error"] as? String == "io.hivekit.Daemon.Unavailable",
            let message = (object["parameters"] as? [String: Any])?["message"] as? String, message.contains(reason),
            case .closed = receive()
        else { return false }
        return true
    }

    /// The next message's `parameters`, or its error name as `["error": name]`; fails
    /// on a close or time-out.
    func reply(timeout: Duration = .seconds(10)) throws -> [String: Any] {
        switch receive(timeout: timeout) {
        case .message(let object):
            if let error = object["error"] as? String { return ["error": error, "parameters": object["parameters"] ?? [:]] }
            return object["parameters"] as? [String: Any] ?? [:]
        case .closed: throw TestFailure("the daemon closed the connection")
        case .timedOut: throw TestFailure("no reply")
        }
    }
}
