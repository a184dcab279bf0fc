import Foundation
import TestSupport
import Testing

extension ControlSocketTests {
    /// Subscribers are independent: each reads from a cursor of its own, so one that stops
    /// reading is dropped alone and a reading one misses nothing.
    @Suite struct SubscriberTests {
        /// What a subscriber read: the custom events' replies (module is null) by name, and
        /// the handler replies.
        struct Read {
            var events: [String: Int] = [:]
            var handlers = 0
            var closed = false

            /// Takes the messages `client` has now (waiting at most `timeout` for the
            /// first); stops after one for which `until` holds, and says whether it came.
            mutating func take(from client: RawControlClient, timeout: Duration, until: ([String: Any]) -> Bool = { _ in false }) -> Bool {
                var wait = timeout
                while true {
                    switch client.receive(timeout: wait) {
                    case .closed:
                        closed = true
                        return false
                    case .timedOut:
                        return false
                    case .message(let message):
                        let notice = message["parameters"] as? [String: Any] ?? [:]
                        if notice["module"] == nil {
                            events[notice["name"] as? String ?? notice["event"] as? String ?? "?", default: 0] += 1
                        } else {
                            handlers += 1
                        }
                        if until(notice) { return true }
                        wait = .milliseconds(1)
                    }
                }
            }
        }

        @Test func aSlowSubscriberIsDroppedAloneWhileAReadingOneGetsEveryEvent() async throws {
            let modules = (0..<20).map { "m\($0)" }
            let fixture = try await ControlFixture.start(modules: modules)
            let (socket, hived) = (fixture.socket, fixture.hived)
            let (sent, read, lastCame) = try await blocking(lowPriority: true) { () -> (Int, Read, Bool) in
                let silent = try RawControlClient(socket)
                var size: Int32 = 4096
                setsockopt(silent.descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
                silent.call("io.hivekit.Daemon.Subscribe", more: true)
                let reader = try RawControlClient(socket)
                reader.call("io.hivekit.Daemon.Subscribe", more: true)
                let sender = try RawControlClient(socket)
                var read = Read()
                // Live once the reader gets a ping (events sent before a subscription are not streamed).
                var live = false
                for _ in 0..<200 where !live {
                    sender.call("io.hivekit.Daemon.SendEvent", #"{"name":"ping"}"#)
                    _ = try sender.reply()
                    live = read.take(from: reader, timeout: .milliseconds(50)) { $0["name"] as? String == "ping" }
                }
                guard live else { throw TestFailure("the reading subscriber never got an event") }
                var sent = 0
                while !hived.stderr.contains("dropped the subscriber"), sent < 5000 {
                    sender.call("io.hivekit.Daemon.SendEvent", #"{"name":"flood"}"#)
                    _ = try sender.reply()
                    sent += 1
                    _ = read.take(from: reader, timeout: .milliseconds(1))
                }
                sender.call("io.hivekit.Daemon.SendEvent", #"{"name":"last"}"#)
                _ = try sender.reply()
                let lastCame = read.take(from: reader, timeout: .seconds(10)) {
                    $0["name"] as? String == "last" && $0["module"] == nil
                }
                return (sent, read, lastCame)
            }
            #expect(hived.stderr.contains("dropped the subscriber"), "after \(sent) events")
            #expect(lastCame && !read.closed, "the reading subscriber is still served")
            #expect(read.events["flood"] == sent, "every event reached the reading subscriber: \(read.events["flood"] ?? 0) of \(sent)")
            try await fixture.stop()  // the log is complete once hived exited
            let drops = fixture.hived.stderr.split(separator: "\n").filter { $0.contains("dropped the subscriber") }
            #expect(drops.count == 1, "only the silent subscriber was dropped: \(drops)")
            #expect(drops.first?.contains("fell 4096 events behind") == true, "\(drops)")
        }
    }
}
