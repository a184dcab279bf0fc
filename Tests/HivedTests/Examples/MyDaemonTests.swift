import Foundation
import TestSupport
import Testing

/// The README's own daemon, `Examples/MyDaemon`: a daemon named `mydaemon` runs, errs, and
/// reads its overrides under its own name, with the command line of HiveDaemon.
@Suite(.enabled(
    if: ExampleBinary.isAvailable(product: "mydaemon"),
    "Examples/MyDaemon is not built (swift build --package-path Examples/MyDaemon; scripts/test builds it)"))
struct MyDaemonTests {
    static let executable = ExampleBinary.url(product: "mydaemon")
    static let configuration = """
        signals: {SIGUSR1: "custom:stats", SIGUSR2: "custom:clear"}
        modules:
          - {name: store, type: store, level: basic, settings: {greeting: hi}}
          - {name: report, type: report}
        """

    @Test func helpAndVersionNameTheDaemon() async throws {
        let version = try await ExampleCommand.run(Self.executable, ["--version"])
        #expect(version.status == 0 && version.stdout == "1.2.0\n")
        let help = try await ExampleCommand.run(Self.executable, ["--help"])
        #expect(help.stdout.contains("USAGE: mydaemon <subcommand>"), "\(help.stdout)")
        #expect(help.stdout.contains("Runs the mydaemon daemon."))
        let run = try await ExampleCommand.run(Self.executable, ["help", "run"])
        #expect(run.stdout.contains("Without --config, mydaemon reads /etc/mydaemon/mydaemon.yaml."), "\(run.stdout)")
    }

    @Test func withoutAFileItNamesItsOwnDefaultPath() async throws {
        let result = try await ExampleCommand.run(Self.executable, [])
        #expect(result.status == 78)
        #expect(result.stderr.hasPrefix(
            "mydaemon: /etc/mydaemon/mydaemon.yaml: cannot read configuration file: No such file or directory"),
            "\(result.stderr)")
    }

    @Test func checkConfigUsesTheDaemonsModuleTypes() async throws {
        let directory = try TestDirectory()
        let good = try directory.write("good.yaml", Self.configuration)
        let result = try await ExampleCommand.run(Self.executable, ["check-config", good])
        #expect(result.status == 0 && result.stdout == "\(good): ok (2 modules enabled)\n", "\(result.stderr)")

        let bad = try directory.write("bad.yaml", "modules:\n  - {name: store, type: store, settings: {greting: x}}\n")
        let failure = try await ExampleCommand.run(Self.executable, ["check-config", bad])
        #expect(failure.status == 78)
        #expect(failure.stderr.hasPrefix("\(bad):2: module 'store': unknown setting 'greting'"), "\(failure.stderr)")
    }

    @Test func aSignalItDoesNotReadIsRefusedInItsOwnName() async throws {
        let directory = try TestDirectory()
        let file = try directory.write("signals.yaml", "signals: {32: \"custom:x\"}\nmodules: []\n")
        let result = try await ExampleCommand.run(Self.executable, ["check-config", file])
        #expect(result.status == 78)
        #expect(result.stderr.hasPrefix(
            "\(file):1: signals.32: signal 32 is not read by mydaemon (it is left to the kernel or the C library)"),
            "\(result.stderr)")
    }

    @Test func overridesAreNamedAfterTheDaemon() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("my.yaml", Self.configuration)
        let refused = try HivedProcess(
            ["--config", config], in: directory,
            environment: ["MYDAEMON_LOG_LEVEL": "loud", "MYDAEMON_LOG_TARGET": "stderr"], executable: Self.executable)
        #expect(try await refused.exitStatus() == 78)
        #expect(refused.stderr.hasPrefix(
            "mydaemon: MYDAEMON_LOG_LEVEL: expected one of trace, debug, info, notice, warning, error, critical; got 'loud'"),
            "\(refused.stderr)")

        let other = try TestDirectory()
        let quiet = try HivedProcess(
            ["--config", config], in: other,
            environment: ["MYDAEMON_LOG_LEVEL": "warning", "HIVED_LOG_LEVEL": "loud", "MYDAEMON_LOG_TARGET": "stderr"],
            executable: Self.executable)
        try await quiet.waitForReady()
        quiet.signal(SIGTERM)
        #expect(try await quiet.exitStatus() == 0, "another daemon's variables are not read")
        #expect(!quiet.stderr.contains(" info "), "MYDAEMON_LOG_LEVEL=warning leaves info out: \(quiet.stderr)")
    }

    @Test func itsModulesCallEachOtherAndStopInOrder() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("my.yaml", Self.configuration)
        let daemon = try HivedProcess(
            ["--config", config], in: directory, environment: ["MYDAEMON_LOG_TARGET": "stderr"],
            executable: Self.executable)
        try await daemon.waitForReady()
        try await ExampleCommand.waitFor(daemon, "[report] ready: store holds 1 key; greeting 'hi'")
        daemon.signal(SIGUSR2)
        try await ExampleCommand.waitFor(daemon, "cleared 1 keys")
        daemon.signal(SIGUSR1)
        try await ExampleCommand.waitFor(daemon, "[report] custom: store holds 0 keys; greeting '-'")
        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
        #expect(daemon.stderr.contains("[store] teardown: store closed"), "\(daemon.stderr)")
        #expect(daemon.notify?.stateMessages.first { $0.hasPrefix("READY=1") } == "READY=1\nSTATUS=running 2 modules")
    }
}
