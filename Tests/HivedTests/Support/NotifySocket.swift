import Foundation
import Synchronization

/// A datagram socket standing in for systemd's notification socket: hived under test
/// gets its path as `NOTIFY_SOCKET`, and every datagram it sends is collected.
final class NotifySocket: Sendable {
    let path: String
    private let descriptor: Int32
    private let received = Received()

    /// The datagrams, shared with the reader thread.
    private final class Received: Sendable {
        let messages = Mutex<[String]>([])
    }

    init(directory: String) throws {
        path = directory + "/notify.sock"
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno)!) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw POSIXError(.init(rawValue: errno)!) }
        let fd = descriptor
        // The reader thread owns the descriptor: it closes it when `deinit`'s shutdown ends
        // its `recv`, so the number cannot be reused (by another test's socket) while the
        // thread still reads from it.
        let thread = Thread { [received] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                let text = String(decoding: buffer[0..<count], as: UTF8.self)
                received.messages.withLock { $0.append(text) }
            }
            close(fd)
        }
        thread.start()
    }

    deinit { shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Every datagram so far, in arrival order.
    var messages: [String] { received.messages.withLock { $0 } }

    /// The datagrams so far, with `WATCHDOG=1` and `EXTEND_TIMEOUT_USEC` pings left out.
    var stateMessages: [String] {
        messages.filter { !$0.hasPrefix("WATCHDOG=1") && !$0.hasPrefix("EXTEND_TIMEOUT_USEC=") }
    }

    /// Waits until a datagram satisfying `predicate` has arrived after the first `skip`
    /// ones; returns its index, or fails after `timeout`.
    @discardableResult
    func waitFor(
        after skip: Int = 0, timeout: Duration = .seconds(20),
        _ what: String, where predicate: (String) -> Bool
    ) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let all = messages
            if all.count > skip, let index = all[skip...].firstIndex(where: predicate) { return index }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("timed out waiting for \(what); got \(messages)")
    }

    /// Waits for the `n`th (1-based) message starting with `prefix`.
    @discardableResult
    func waitForCount(_ n: Int, startingWith prefix: String, timeout: Duration = .seconds(20)) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let matching = messages.filter { $0.hasPrefix(prefix) }
            if matching.count >= n { return matching }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("timed out waiting for \(n)× \(prefix); got \(messages)")
    }
}

/// A failure with a message, for harness timeouts.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
