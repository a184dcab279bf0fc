import Foundation
import TestSupport
import Testing

/// `Examples/MyDaemon`'s `mydaemon`: a daemon built on HiveKit serves the same control
/// socket as hived, and `mydaemon ctl` is its client, named after it.
@Suite(.enabled(
    if: ExampleBinary.isAvailable(product: "mydaemon"),
    "Examples/MyDaemon is not built (swift build --package-path Examples/MyDaemon; scripts/test builds it)"))
struct MyDaemonCtlTests {
    static let executable = ExampleBinary.url(product: "mydaemon")

    @Test func ctlStatusListsItsModulesAndNamesTheDaemon() async throws {
        let example = try await ExampleWithControl.start(Self.executable)
        let (socket, daemon) = (example.socket, example.daemon)
        let status = try await ExampleCommand.run(Self.executable, ["ctl", "status", "--socket", socket])
        #expect(status.status == 0, "\(status.stderr)")
        let lines = status.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "● mydaemon 1.2.0, pid \(daemon.pid)", "\(status.stdout)")
        #expect(lines.contains { $0.hasPrefix("   phase: running, up ") }, "\(status.stdout)")
        let rows = lines.dropFirst(3).map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.map { $0.first } == ["store", "report"], "\(status.stdout)")
        #expect(rows.map { $0.last } == ["active", "active"], "\(status.stdout)")

        // The Varlink introspection names the daemon too.
        let info = try await VarlinkPython.runInBackground([socket, "describe"])
        #expect((info.first?["info"] as? [String: Any])?["product"] as? String == "mydaemon")
        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed at exit")
    }

    @Test func ctlOpensAndPerformsWhatItsModulesExport() async throws {
        let example = try await ExampleWithControl.start(Self.executable)
        let (socket, daemon) = (example.socket, example.daemon)
        let count = try await ExampleCommand.run(Self.executable, ["ctl", "perform", "store", "count", "--socket", socket])
        #expect(count.status == 0 && count.stdout == "1\n", "\(count)")
        let value = try await ExampleCommand.run(Self.executable, ["ctl", "open", "hive://store/value/greeting", "--socket", socket])
        #expect(value.status == 0 && value.stdout == "hi\n", "\(value)")
        let missing = try await ExampleCommand.run(Self.executable, ["ctl", "open", "hive://store/value/nothing", "--socket", socket])
        #expect(missing.status == 1 && missing.stderr == "hive://store/value/nothing: not handled (every matching route declined)\n", "\(missing)")
        let clear = try await ExampleCommand.run(Self.executable, ["ctl", "open", "hive://store/clear", "--socket", socket])
        #expect(clear.status == 67, "\(clear)")
        #expect(clear.stderr == "not exported: route 'hive://store/clear' of module 'store' is not exported: only the daemon's own modules may open it\n")
        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
    }

    @Test func ctlWithoutADaemonNamesItAndItsSocket() async throws {
        let directory = try TestDirectory()
        let runtime = try await ExampleCommand.run(
            Self.executable, ["ctl", "status"], environment: ["RUNTIME_DIRECTORY": directory.path])
        #expect(runtime.status == 69)
        #expect(
            runtime.stderr == "mydaemon is not running or the control socket is off: \(directory.file("control")): No such file or directory\n",
            "\(runtime.stderr)")
        // Outside systemd it looks in the daemon's own runtime directory.
        if !FileManager.default.fileExists(atPath: "/run/mydaemon/control") {
            let plain = try await ExampleCommand.run(Self.executable, ["ctl", "status"])
            #expect(plain.status == 69)
            #expect(
                plain.stderr == "mydaemon is not running or the control socket is off: /run/mydaemon/control: No such file or directory\n",
                "\(plain.stderr)")
        }
    }
}
