import Foundation
import TestSupport
import Testing

/// mydaemon-group's command line: the one `mydaemon` has, although it runs its daemon in
/// a ServiceGroup (`DaemonService.parseOrExit`).
extension MyDaemonGroupTests {
    @Test func checkConfigVersionAndHelpRunWithoutAGroup() async throws {
        let directory = try TestDirectory()
        let good = try directory.write("my.yaml", Self.configuration(greeting: "hi"))
        let checked = try await ExampleCommand.run(Self.executable, ["check-config", good])
        #expect(checked.status == 0, "\(checked)")
        #expect(checked.stdout.contains("ok (3 modules enabled)"), "\(checked)")
        let bad = try directory.write("bad.yaml", "modules: [{name: x, type: nope}]")
        let refused = try await ExampleCommand.run(Self.executable, ["check-config", bad])
        #expect(refused.status == 78, "\(refused)")
        #expect(refused.stderr.contains("\(bad):1:"), "\(refused)")

        let version = try await ExampleCommand.run(Self.executable, ["--version"])
        #expect(version.status == 0 && version.stdout == "1.2.0\n", "\(version)")
        let help = try await ExampleCommand.run(Self.executable, ["--help"])
        #expect(help.status == 0, "\(help)")
        for command in ["run", "check-config", "ctl"] {
            #expect(help.stdout.contains("  \(command) "), "\(command) missing from:\n\(help.stdout)")
        }
        let bogus = try await ExampleCommand.run(Self.executable, ["bogus"])
        #expect(bogus.status == 64, "\(bogus)")
    }

    @Test func ctlAsksTheDaemonRunningInTheGroup() async throws {
        let directory = try TestDirectory()
        let socket = directory.file("control")
        let config = try directory.write("my.yaml", "control: {socket: \(socket)}\n" + Self.configuration(greeting: "hi"))
        let daemon = try HivedProcess(["run", "--config", config], in: directory, executable: Self.executable)
        try await daemon.waitForReady()
        let status = try await ExampleCommand.run(Self.executable, ["ctl", "status", "--socket", socket])
        #expect(status.status == 0, "\(status)")
        #expect(status.stdout.hasPrefix("● mydaemon 1.2.0, pid \(daemon.pid)"), "\(status.stdout)")
        let count = try await ExampleCommand.run(Self.executable, ["ctl", "perform", "store", "count", "--socket", socket])
        #expect(count.status == 0 && count.stdout == "1\n", "\(count)")
        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0, "\(daemon.stderr)")
    }
}
