import Foundation
import Testing

extension ControlSocketTests {
    /// Who may use the socket: checked with `SO_PEERCRED` against clients run as `nobody`.
    @Suite struct PeerTests {
        /// Lets `nobody` reach the socket file, so that the daemon's own check is what decides.
        static func openUp(_ fixture: ControlFixture, socketMode: mode_t) {
            chmod(fixture.directory.path, 0o755)
            chmod(fixture.socket, socketMode)
        }

        @Test(.enabled(if: getuid() == 0, "needs root to run a client as nobody"))
        func anotherUserIsRefusedAndLogged() async throws {
            let fixture = try await ControlFixture.start()
            var status = stat()
            #expect(lstat(fixture.socket, &status) == 0 && status.st_mode & 0o777 == 0o660, "the socket is created 0660")
            Self.openUp(fixture, socketMode: 0o666)
            let permission = #"hive_control_refused_total{reason="permission"}"#
            #expect(try await RefusalTests.value(of: permission, in: fixture) == 0)
            let refused = try await fixture.call("io.hivekit.Daemon.GetStatus", as: .nobody)
            #expect(refused["error"] as? String == "io.hivekit.Daemon.PermissionDenied", "\(refused)")
            // Counted before the refusal was sent.
            #expect(try await RefusalTests.value(of: permission, in: fixture) == 1)
            // Logs are written by a thread of their own: wait for the line.
            let deadline = ContinuousClock.now + .seconds(10)
            while !fixture.hived.stderr.contains("refused uid 65534, pid "), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(fixture.hived.stderr.contains("refused uid 65534, pid "), "\(fixture.hived.stderr)")
            // root still gets in.
            #expect(try await fixture.reply("io.hivekit.Daemon.GetStatus")["phase"] as? String == "running")
            try await fixture.stop()
        }

        @Test(.enabled(if: getuid() == 0, "needs root to run a client as nobody"))
        func membersOfTheControlGroupAreServed() async throws {
            let fixture = try await ControlFixture.start(control: ", group: daemon")
            var status = stat()
            #expect(lstat(fixture.socket, &status) == 0 && status.st_gid == 1, "the socket file belongs to the control group")
            Self.openUp(fixture, socketMode: 0o660)
            let served = try await fixture.call("io.hivekit.Daemon.GetStatus", as: .nobody(withGroup: "daemon"))
            #expect((served["reply"] as? [String: Any])?["phase"] as? String == "running", "\(served)")
            try await fixture.stop()
        }
    }
}
