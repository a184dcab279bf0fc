import Foundation
import Testing

extension ControlSocketTests {
    /// Bytes, not only counts, bound what the control socket holds: a custom event's name
    /// and parameters have limits (`LimitExceeded` naming them), and subscribers of a
    /// daemon fed events as large as a message can be keep resident memory bounded.
    @Suite struct LimitTests {
        /// `SendEvent` with `name` and `parameters` (a JSON object's text) on a new
        /// connection: its reply, or `["error": name, "parameters": …]`.
        static func sendEvent(_ socket: String, name: String, parameters: String = "{}") throws -> [String: Any] {
            let client = try RawControlClient(socket)
            client.call("io.hivekit.Daemon.SendEvent", #"{"name":"\#(name)","parameters":\#(parameters)}"#)
            return try client.reply()
        }

        /// The `LimitExceeded` error's (parameter, limit), or nil for another reply.
        static func exceeded(_ reply: [String: Any]) -> (String, Int)? {
            guard reply["error"] as? String == "io.hivekit.Daemon.LimitExceeded",
                let parameters = reply["parameters"] as? [String: Any],
                let parameter = parameters["parameter"] as? String, let limit = parameters["limit"] as? Int
            else { return nil }
            return (parameter, limit)
        }

        /// Parameters as JSON text: `count` keys of 3 bytes whose values fill `bytes` in all.
        static func parameters(count: Int, bytes: Int) -> String {
            let keys = (0..<count).map { String(format: "k%02d", $0) }
            let valueBytes = (bytes - 3 * count) / count
            var values = Array(repeating: String(repeating: "v", count: valueBytes), count: count)
            values[0] += String(repeating: "v", count: bytes - 3 * count - valueBytes * count)
            return "{" + zip(keys, values).map { "\"\($0)\":\"\($1)\"" }.joined(separator: ",") + "}"
        }

        @Test func sendEventTakesNamesAndParametersUpToTheirLimitsAndRefusesMore() async throws {
            let fixture = try await ControlFixture.start()
            let socket = fixture.socket
            let replies = try await blocking { () -> [String] in
                [
                    try Self.sendEvent(socket, name: String(repeating: "n", count: 255), parameters: Self.parameters(count: 64, bytes: 16384)),
                    try Self.sendEvent(socket, name: String(repeating: "n", count: 256)),
                    try Self.sendEvent(socket, name: String(repeating: "é", count: 128)),
                    try Self.sendEvent(socket, name: "many", parameters: Self.parameters(count: 65, bytes: 400)),
                    try Self.sendEvent(socket, name: "large", parameters: Self.parameters(count: 2, bytes: 16385)),
                ].map { reply in
                    Self.exceeded(reply).map { "LimitExceeded \($0.0) \($0.1)" } ?? "delivered \(reply["delivered"] ?? reply)"
                }
            }
            #expect(replies == [
                "delivered 4", "LimitExceeded name 255", "LimitExceeded name 255",  // bytes, not characters
                "LimitExceeded parameters 64", "LimitExceeded parameters 16384",
            ])
            // Nothing refused reached a module.
            let names = try ProbeFile(path: fixture.events).lines.compactMap(\.name)
            #expect(names == [String(repeating: "n", count: 255), String(repeating: "n", count: 255)], "\(names)")
            // ctl says which limit.
            let ctl = try await fixture.ctl("send", String(repeating: "x", count: 300))
            #expect(ctl.status == 1)
            #expect(ctl.stderr == "over the limit: the event name is 300 bytes; at most 255\n", "\(ctl.stderr)")
            try await fixture.stop()
        }

        /// The issue's attack: subscribers that read, and `SendEvent` calls whose names are
        /// nearly a message's 1 MiB (each subscriber had hundreds of them encoded at once).
        @Test func subscribersAndHugeEventsKeepResidentMemoryUnder256MiB() async throws {
            let fixture = try await ControlFixture.start()
            let (socket, usage) = (fixture.socket, ProcessUsage(pid: fixture.hived.pid))
            let (refused, peak) = try await blocking(lowPriority: true) { () -> (Int, Int) in
                let subscribers = try (0..<8).map { _ in try RawControlClient(socket) }
                for subscriber in subscribers { subscriber.call("io.hivekit.Daemon.Subscribe", more: true) }
                // Readers that keep up only partly: 64 KiB every 20 ms each. The thread ends
                // before the subscribers' descriptors are closed (it must never read a number
                // another test reuses).
                let descriptors = subscribers.map(\.descriptor)
                let ended = DispatchSemaphore(value: 0)
                let reading = Thread {
                    var chunk = [UInt8](repeating: 0, count: 64 << 10)
                    while !Thread.current.isCancelled {
                        for descriptor in descriptors { _ = recv(descriptor, &chunk, chunk.count, Int32(MSG_DONTWAIT)) }
                        usleep(20_000)
                    }
                    ended.signal()
                }
                reading.start()
                defer {
                    reading.cancel()
                    ended.wait()
                }
                let name = String(repeating: "x", count: (1 << 20) - 200)
                var refused = 0
                var peak = 0
                for _ in 0..<130 {
                    if Self.exceeded(try Self.sendEvent(socket, name: name)) != nil { refused += 1 }
                    peak = max(peak, usage.residentKiB)
                }
                return (refused, peak)
            }
            #expect(refused == 130)
            #expect(peak < 256 << 10, "VmRSS reached \(peak >> 10) MiB")
            try await fixture.stop()
        }
    }
}
