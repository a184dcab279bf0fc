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
                #expect(socket.next()?.text == "STOPPING=1\nSTATUS=stop budget of 1.0s exceeded")
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
            let directory = try TestDirectory()
            let socket = try HandReadNotifySocket(path: directory.file("notify.sock"))
            #expect(try socket.fill() > 0)
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
                // Reading makes room; the writer then delivers both, in order (nothing
                // signals the test when they arrive: look every millisecond, at most 10 s).
                while socket.messages.count < 2, MonotonicClock.nanoseconds() < limit + 10_000_000_000 {
                    socket.read()
                    usleep(1000)
                }
                #expect(socket.messages == ["STOPPING=1", "STATUS=exceeded"])
                #expect(notifier.flush(until: MonotonicClock.nanoseconds() + 10_000_000_000))
            }
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
