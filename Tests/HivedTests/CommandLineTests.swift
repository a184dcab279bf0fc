import Foundation
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
}
