import Foundation
import TestSupport
import Testing

extension ControlSocketTests {
    /// Connections turned away are answered `Unavailable`, counted in
    /// `hive_control_refused_total` and logged, a flood of them in one message.
    @Suite struct RefusalTests {
        /// The value of the series `series` (`name{labels}`) in `hived ctl metrics`.
        static func value(of series: String, in fixture: ControlFixture) async throws -> Int? {
            let metrics = try await fixture.ctl("metrics")
            guard metrics.status == 0 else { throw TestFailure("ctl metrics exited \(metrics.status): \(metrics.stderr)") }
            let line = metrics.stdout.split(separator: "\n").first { $0.hasPrefix(series + " ") }
            return line.flatMap { Int($0.dropFirst(series.count + 1)) }
        }

        @Test func clientsTurnedAwayAtTheLimitAreCountedAndAFloodLoggedOnce() async throws {
            let fixture = try await ControlFixture.start()
            let clients = #"hive_control_refused_total{reason="clients"}"#
            #expect(try await Self.value(of: clients, in: fixture) == 0)
            try await fixture.waitUntilConnectionsClosed()
            let socket = fixture.socket
            let turnedAway = try await blocking { () -> Int in
                var served: [RawControlClient] = []
                for _ in 0..<64 {
                    let client = try RawControlClient(socket)
                    client.call("org.varlink.service.GetInfo")
                    _ = try client.reply()
                    served.append(client)
                }
                var closed = 0
                for _ in 0..<10 {
                    let extra = try RawControlClient(socket)
                    extra.call("org.varlink.service.GetInfo")
                    if extra.isTurnedAway(because: "64 clients already connected") { closed += 1 }
                }
                return closed
            }
            #expect(turnedAway == 10)
            // Once the 64 left (and the daemon closed their connections) a client is served again.
            try await fixture.waitUntilConnectionsClosed()
            #expect(try await Self.value(of: clients, in: fixture) == 10)
            #expect(try await Self.value(of: #"hive_control_refused_total{reason="permission"}"#, in: fixture) == 0)
            try await fixture.stop()  // the log is complete once hived exited
            let lines = fixture.hived.stderr.split(separator: "\n").filter { $0.contains("control socket: turned away uid ") }
            #expect(lines.count == 1, "one message for the flood of 10: \(lines)")
            #expect(lines.first?.contains("warning") == true, "\(lines)")
            #expect(lines.first?.contains("64 clients already connected") == true, "\(lines)")
        }
    }
}
