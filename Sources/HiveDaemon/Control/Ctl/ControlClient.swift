#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// A blocking Varlink client of the control socket, for `ctl`: one call at a time.
final class ControlClient {
    let path: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Why sending failed because the daemon had closed the connection (`EPIPE`,
    /// `ECONNRESET`): it may have written why first (`Unavailable`), which
    /// ``receive()`` then reads; if not, this is the error.
    private var sendFailure: Int32?

    /// Connects to `path`, the socket of the daemon called `daemon`.
    ///
    /// - Throws: ``ControlClientError`` naming the socket and the cause.
    init(path: String, daemon: String) throws(ControlClientError) {
        self.path = path
        guard var address = UnixAddress(path) else { throw .unreachable(path, ENAMETOOLONG, daemon: daemon) }
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .unreachable(path, errno, daemon: daemon) }
        guard address.connect(descriptor) == 0 else {
            let error = errno
            close(descriptor)
            throw .unreachable(path, error, daemon: daemon)
        }
    }

    deinit { close(descriptor) }

    /// Sends a call of `method` (`io.hivekit.Daemon.GetStatus`) with `parameters`. When
    /// the daemon has closed the connection already, the next ``receive()`` reads the
    /// reason it wrote first (a connection turned away is answered `Unavailable`), or
    /// throws this send's error.
    func send<Parameters: Encodable>(_ method: String, _ parameters: Parameters, more: Bool = false) throws(ControlClientError) {
        var bytes = VarlinkCoding.encode(Call(method: method, parameters: parameters, more: more ? true : nil))[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE || errno == ECONNRESET {
                    sendFailure = errno
                    return
                }
                throw .broken(path, "sending the call", errno)
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// The next reply (without its NUL).
    ///
    /// - Throws: ``ControlClientError`` when the daemon closes the connection or the
    ///   reply is not JSON.
    func receive() throws(ControlClientError) -> ControlReply {
        while true {
            if let nul = buffer.firstIndex(of: 0) {
                let message = Data(buffer[..<nul])
                buffer.removeSubrange(...nul)
                return try ControlReply(message, path: path)
            }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count < 0, errno == EINTR { continue }
            if count <= 0, let sendFailure { throw .broken(path, "sending the call", sendFailure) }
            if count < 0 { throw .broken(path, "reading the reply", errno) }
            if count == 0 { throw .closed(path) }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Calls `method` and returns its one reply.
    func call<Parameters: Encodable>(_ method: String, _ parameters: Parameters) throws(ControlClientError) -> ControlReply {
        try send(method, parameters)
        return try receive()
    }
}

/// A call as the client sends it.
private struct Call<Parameters: Encodable>: Encodable {
    let method: String
    let parameters: Parameters
    let more: Bool?
}

/// One reply: its raw JSON text, and either parameters or an error.
struct ControlReply {
    /// The message as received.
    let text: String
    /// The error's name, if the reply is an error.
    let error: String?
    /// Whether more replies follow.
    let continues: Bool
    private let body: Data

    private struct Header: Decodable {
        let error: String?
        let continues: Bool?
    }

    private struct Envelope<Parameters: Decodable>: Decodable {
        let parameters: Parameters
    }

    init(_ body: Data, path: String) throws(ControlClientError) {
        guard let header = try? JSONDecoder().decode(Header.self, from: body) else {
            throw .malformed(path, String(decoding: body.prefix(200), as: UTF8.self))
        }
        self.body = body
        self.text = String(decoding: body, as: UTF8.self)
        self.error = header.error
        self.continues = header.continues ?? false
    }

    /// The parameters as `type`.
    func parameters<Parameters: Decodable>(_ type: Parameters.Type, path: String) throws(ControlClientError) -> Parameters {
        do {
            return try JSONDecoder().decode(Envelope<Parameters>.self, from: body).parameters
        } catch {
            throw .malformed(path, text)
        }
    }
}

/// Why `ctl` could not talk to the daemon, naming the socket and the cause.
enum ControlClientError: Error, CustomStringConvertible {
    /// `connect` failed: not running, socket off, or no permission.
    case unreachable(String, Int32, daemon: String)
    /// The connection broke.
    case broken(String, String, Int32)
    /// The daemon closed the connection before replying.
    case closed(String)
    /// A reply was not what the interface says.
    case malformed(String, String)

    var description: String {
        switch self {
        case .unreachable(let path, let error, let daemon):
            let cause = String(cString: strerror(error))
            if error == ENOENT || error == ECONNREFUSED {
                return "\(daemon) is not running or the control socket is off: \(path): \(cause)"
            }
            return "cannot connect to the control socket: \(path): \(cause)"
        case .broken(let path, let what, let error):
            return "\(path): \(what): \(String(cString: strerror(error)))"
        case .closed(let path):
            return "\(path): the daemon closed the connection without replying"
        case .malformed(let path, let text):
            return "\(path): unexpected reply: \(text)"
        }
    }
}
