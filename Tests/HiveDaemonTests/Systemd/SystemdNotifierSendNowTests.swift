import Glibc
@testable import HiveDaemon
import HiveKit
import TestSupport
import Testing

extension ProcessEnvironmentSuite {
    /// The stop guard's report goes out from its own thread, never blocking and never ahead
    /// of what is queued.
    @Suite struct SystemdNotifierSendNowTests {
        @Test func sendNowDeliversAtOnceWhenNothingIsQueued() throws {
            let socket = try NotifySocket()
            try ProcessEnvironmentSuite.with(["NOTIFY_SOCKET": socket.path]) {
                let notifier = SystemdNotifier(environment: .capture())
                #expect(notifier.sendNow(.stopping(status: "stop budget of 1.0s exceeded")), "sent on this thread")
                #expect(socket.receive() == "STOPPING=1\nSTATUS=stop budget of 1.0s exceeded")
                #expect(!notifier.isBlocked(since: MonotonicClock.nanoseconds()))
            }
        }

        @Test func sendNowReachesAnAbstractSocket() throws {
            let name = "hivekit-sendnow-\(getpid())"
            let receiver = try Self.boundAbstractSocket(name)
            defer { close(receiver) }
            try ProcessEnvironmentSuite.with(["NOTIFY_SOCKET": "@" + name]) {
                #expect(SystemdNotifier(environment: .capture()).sendNow(.status("exceeded")))
            }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = recv(receiver, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            #expect(count > 0 && String(decoding: buffer[..<max(count, 0)], as: UTF8.self) == "STATUS=exceeded")
        }

        /// A receiver whose queue is full holds the writer in `sd_notify`: the report waits
        /// behind `STOPPING=1` and arrives after it once the receiver reads again.
        @Test func sendNowQueuesBehindAWriterThatIsBlocked() throws {
            let socket = try NotifySocket()
            let fillers = try Self.fill(socket.path)
            #expect(fillers > 0)
            try ProcessEnvironmentSuite.with(["NOTIFY_SOCKET": socket.path]) {
                let notifier = SystemdNotifier(environment: .capture())
                let before = MonotonicClock.nanoseconds()
                #expect(notifier.send(.stopping()))
                // The writer thread takes STOPPING=1 and blocks; nothing signals that, so look
                // every millisecond (for at most 10 s).
                let limit = MonotonicClock.nanoseconds() + 10_000_000_000
                while !notifier.isBlocked(since: MonotonicClock.nanoseconds()), MonotonicClock.nanoseconds() < limit {
                    usleep(1000)
                }
                #expect(!notifier.isBlocked(since: before), "not blocked since before it began")
                #expect(!notifier.sendNow(.status("exceeded")), "queued, not sent ahead")
                var texts: [String] = []
                while texts.count < fillers + 2, let text = socket.receive() { texts.append(text) }
                #expect(texts.suffix(2) == ["STOPPING=1", "STATUS=exceeded"])
                #expect(notifier.flush(until: MonotonicClock.nanoseconds() + 10_000_000_000))
            }
        }

        /// Sends datagrams to `path` until its receive queue is full; returns how many.
        private static func fill(_ path: String) throws -> Int {
            let sender = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
            defer { close(sender) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
            var count = 0
            while true {
                let sent = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(sender, "FILLER", 6, 0, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
                guard sent == 6 else { break }
                count += 1
            }
            guard errno == EAGAIN else { throw TestFailure("filling \(path): \(String(cString: strerror(errno)))") }
            return count
        }

        /// A datagram socket bound to the abstract name `name`.
        private static func boundAbstractSocket(_ name: String) throws -> Int32 {
            let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(name.utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.baseAddress!.advanced(by: 1).copyMemory(from: bytes, byteCount: bytes.count) }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + bytes.count)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            guard bound == 0 else { throw TestFailure("bind @\(name): \(String(cString: strerror(errno)))") }
            return descriptor
        }
    }
}
