import ArgumentParser
@testable import HiveDaemon
import HiveKit
import TestSupport
import Testing

/// A program of the tests' own, with a subcommand of its own.
private struct TestProgram: DaemonProgram {
    static let identity = DaemonIdentity(name: "testd", version: "9.9.9")
    static let modules = ModuleCatalog()
    static let subcommands: [any ParsableCommand.Type] = [ExtraCommand.self]
}

private struct ExtraCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "extra", abstract: "Something more.")
    @Argument var what: String
}

// CPU-bound and synchronous (in BlockingTests' process, away from the timing-sensitive
// tests): one test at a time, so the suite holds at most one of the pool's threads.
@Suite(.serialized, .runsIn(.blocking)) struct DaemonCommandTests {
    @Test func runIsTheDefaultAndCheckConfigTakesAPath() throws {
        #expect(try DaemonCommand<TestProgram>.parseAsRoot([]) is DaemonRunCommand<TestProgram>)
        let run = try #require(try DaemonCommand<TestProgram>.parseAsRoot(["run", "--config", "a.yaml"]) as? DaemonRunCommand<TestProgram>)
        #expect(run.config == "a.yaml")
        let check = try #require(try DaemonCommand<TestProgram>.parseAsRoot(["check-config", "b.yaml"]) as? DaemonCheckConfigCommand<TestProgram>)
        #expect(check.path == "b.yaml")
    }

    @Test func aProgramsOwnSubcommandPlugsIn() throws {
        let extra = try #require(try DaemonCommand<TestProgram>.parseAsRoot(["extra", "x"]) as? ExtraCommand)
        #expect(extra.what == "x")
        let help = DaemonCommand<TestProgram>.helpMessage()
        #expect(help.contains("USAGE: testd <subcommand>"), "\(help)")
        #expect(help.contains("extra") && help.contains("Something more."))
        #expect(help.contains("Runs the testd daemon."))
        #expect(DaemonCommand<TestProgram>.configuration.version == "9.9.9")
    }

    @Test func withoutAnEmbeddedConfigurationTheDefaultFileIsRead() {
        #expect(DaemonCommand<TestProgram>.configurationPath(explicit: nil) == "/etc/testd/testd.yaml")
        #expect(DaemonCommand<TestProgram>.configurationPath(explicit: "x.yaml") == "x.yaml")
    }

    @Test(arguments: [
        ([], nil as String?), (["run"], nil), (["--config", "a"], "a"), (["--config=a"], "a"),
        (["run", "--config", "a"], "a"), (["run", "--config=a"], "a"),
    ])
    func plainRunsSkipArgumentParser(_ arguments: [String], _ path: String?) throws {
        let plain = try #require(RunCommandLine(arguments))
        #expect(plain.configPath == path)
    }

    @Test(arguments: [
        ["--help"], ["--version"], ["check-config", "a"], ["--config"], ["--config", ""], ["--config", "-x"],
        ["--config="], ["run", "extra"], ["--config", "a", "b"], ["extra", "x"],
    ])
    func everythingElseGoesToArgumentParser(_ arguments: [String]) {
        #expect(RunCommandLine(arguments) == nil)
    }
}
