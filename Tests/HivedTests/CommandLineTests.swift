import Foundation
import TestSupport
import Testing

/// Every spelling of a run starts the daemon on the chosen file; anything else goes to
/// the full command-line parser.
@Suite struct CommandLineTests {
    @Test(arguments: [
        ["--config", "FILE"], ["--config=FILE"], ["run", "--config", "FILE"], ["run", "--config=FILE"],
    ])
    func everySpellingOfARunReadsTheChosenFile(_ spelling: [String]) async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let config = try directory.write("hived.yaml", "modules: [{name: only, type: probe, settings: {path: \(events)}}]")
        let hived = try HivedProcess(spelling.map { $0.replacingOccurrences(of: "FILE", with: config) }, in: directory)
        try await hived.waitForReady()
        _ = try await ProbeFile.waitFor(events, "ready") { $0.module == "only" && $0.event == "ready" }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test(arguments: [
        (["--config"], "Missing value for '--config <config>'"),
        (["run", "--config", ""], "cannot read configuration file"),
        (["run", "--verbose"], "Unknown option '--verbose'"),
        (["--config", "a.yaml", "extra"], "Unexpected argument 'extra'"),
        (["launch"], "Unexpected argument 'launch'"),
    ])
    func otherCommandLinesAreUsageErrors(_ arguments: [String], _ message: String) async throws {
        let directory = try TestDirectory()
        let hived = try HivedProcess(arguments, in: directory)
        let status = try await hived.exitStatus()
        #expect(status != 0, "\(hived.stderr)")
        #expect(hived.stderr.contains(message), "\(hived.stderr)")
        #expect(hived.notify?.messages.contains { $0.hasPrefix("READY=1") } == false)
    }

    /// `--help` lists every exit status a run can end with (``DaemonExitCode``) and the
    /// usage error's.
    @Test func helpListsEveryExitStatus() async throws {
        let help = try await ExampleCommand.run(HivedProcess.executable, ["--help"])
        #expect(help.status == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for status in [
            "0 after a clean stop", "69 when a module asked for the stop on a failure",
            "70 when a module failed setup or init", "75 when the stop budget ran out",
            "78 for a configuration that cannot start", "64 for a usage error",
        ] {
            #expect(text.contains(status), "\(status) missing from: \(help.stdout)")
        }
    }
    /// `hived bogus` names no command: the usage shown is the program's, listing its
    /// commands, not that of the default `run`.
    @Test func anUnknownCommandShowsTheProgramsUsage() async throws {
        let result = try await ExampleCommand.run(HivedProcess.executable, ["bogus"])
        #expect(result.status == 64)
        #expect(result.stderr == "Error: Unexpected argument 'bogus'\nUsage: hived <subcommand>\n"
            + "  See 'hived --help' for more information.\n", "\(result.stderr)")
        let run = try await ExampleCommand.run(HivedProcess.executable, ["run", "bogus"])
        #expect(run.status == 64 && run.stderr.contains("Usage: hived run [--config <config>]"), "\(run.stderr)")
    }

    /// `ctl` with a bad argument exits 64, and both lists of ctl's statuses say so: its
    /// `--help` and the control interface article.
    @Test func ctlUsageErrorsExit64AsItsStatusListsSay() async throws {
        let bogus = try await ExampleCommand.run(HivedProcess.executable, ["ctl", "log-level", "bogus"])
        #expect(bogus.status == 64, "\(bogus)")
        let help = try await ExampleCommand.run(HivedProcess.executable, ["ctl", "--help"])
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("64 for a usage error"), "\(help.stdout)")
        let url = FirstRunTests.packageRoot.appendingPathComponent("Sources/HiveDaemon/HiveDaemon.docc/ControlInterface.md")
        let article = try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let statuses = try #require(article.components(separatedBy: "Exit status: 0;").dropFirst().first?.components(separatedBy: ". ").first)
        #expect(statuses.contains("64 for a usage error"), "\(statuses)")
    }
}
