import Foundation

/// A `NOTIFY_SOCKET` receiver the test reads by hand: while it does not read, its queue
/// stays full and hived's notifications wait, as when PID 1 is busy; ``read()`` takes what
/// is waiting, as PID 1 does once it recovers.
public final class HandReadNotifySocket {
    /// Where it is bound.
    public let path: String
    private let descriptor: Int32
    /// The datagrams hived sent, in arrival order (the filler left out).
    public private(set) var messages: [String] = []
    /// How many of the test's own filler datagrams were read back.
    public private(set) var fillersRead = 0
    private static let filler = "HIVED_TEST_FILLER=1"

    /// A socket bound at `path`.
    public init(path: String) throws {
        self.path = path
        descriptor = try UnixAddress.boundDatagramSocket(path)
    }

    deinit { close(descriptor) }

    /// Fills the socket's queue with datagrams of the test's own until the kernel takes no
    /// more (`net.unix.max_dgram_qlen`): from then on, every sender waits. Returns how many.
    public func fill() throws -> Int {
        let sender = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard sender >= 0 else { throw TestFailure("socket: errno \(errno)") }
        defer { close(sender) }
        var count = 0
        while true {
            let sent = UnixAddress.with(path) { target, length in
                Self.filler.withCString { sendto(sender, $0, strlen($0), Int32(MSG_DONTWAIT), target, length) }
            }
            if sent >= 0 {
                count += 1
            } else if errno == EAGAIN {
                return count
            } else if errno != EINTR {
                throw TestFailure("sendto \(path): errno \(errno)")
            }
        }
    }

    /// Reads every datagram waiting, without waiting for more.
    public func read() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return }
            let text = String(decoding: buffer[..<count], as: UTF8.self)
            if text == Self.filler { fillersRead += 1 } else { messages.append(text) }
        }
    }

    /// The assignments that change the service's state (`READY=1`, `RELOADING=1`,
    /// `STOPPING=1`), in arrival order.
    public var states: [String] {
        messages.flatMap { message in
            message.split(separator: "\n").filter { ["READY=1", "RELOADING=1", "STOPPING=1"].contains($0) }.map(String.init)
        }
    }
}
