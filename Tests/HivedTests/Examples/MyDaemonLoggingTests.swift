import Foundation
import TestSupport
import Testing

/// `Examples/MyDaemon`'s `mydaemon-logging`: a `DaemonProgram` whose own `main` bootstraps
/// swift-log's `StreamLogHandler` on stdout, then calls `DaemonCommand<Self>.main()`. A
/// `StreamLogHandler` cannot be told from swift-log's default, so only knowing who the
/// entry point is keeps the daemon from bootstrapping a second time (a trap).
@Suite(.enabled(
    if: ExampleBinary.isAvailable(product: "mydaemon-logging"),
    "Examples/MyDaemon is not built (swift build --package-path Examples/MyDaemon; scripts/test builds it)"))
struct MyDaemonLoggingTests {
    static let executable = ExampleBinary.url(product: "mydaemon-logging")

    static func configuration(greeting: String) -> String {
        """
        log: {level: info}
        modules:
          - {name: store, type: store, level: basic, settings: {greeting: \(greeting)}}
          - {name: report, type: report}
        """
    }

    /// Starts mydaemon-logging on `config` with its stdout in `directory`'s `stdout` file.
    static func start(_ config: String, in directory: TestDirectory, environment: [String: String] = [:]) throws -> HivedProcess {
        let stdout = directory.file("stdout")
        return try HivedProcess(
            ["--config", config], in: directory, environment: environment, executable: executable,
            launcher: ["/bin/sh", "-c", "exec \"$0\" \"$@\" > \(stdout)"])
    }

    @Test func theProgramsStreamLogHandlerWritesTheDaemonsLinesWithoutATrap() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("my.yaml", Self.configuration(greeting: "hi"))
        let daemon = try Self.start(config, in: directory)
        try await daemon.waitForReady()
        let stdout = directory.file("stdout")
        func output() -> String { (try? String(contentsOfFile: stdout, encoding: .utf8)) ?? "" }
        // StreamLogHandler's format: `TIME info mydaemon: event=ready module=report [MyDaemonModules] store holds…`.
        try await waitUntil("the report on stdout", detail: { "stdout:\n\(output())\nstderr:\n\(daemon.stderr)" }) {
            output().split(separator: "\n").contains {
                $0.contains(" info mydaemon: event=ready module=report [MyDaemonModules] store holds 1 key; greeting 'hi'")
            }
        }

        // log.level applies to the program's handler, and a reload changes it: an unmapped
        // signal's debug line is left out at info (decided on the signal thread before it
        // takes the next signal), written at debug.
        let ignored = " debug mydaemon: [HiveDaemon] ignored SIGUSR2: not mapped to an event"
        try await daemon.deliver(SIGUSR2)
        try directory.write("my.yaml", Self.configuration(greeting: "hi").replacingOccurrences(of: "info", with: "debug"))
        let before = daemon.notify?.messages.count ?? 0
        daemon.signal(SIGHUP)
        let reloading = try await daemon.notify!.waitFor(after: before, "RELOADING=1") { $0.hasPrefix("RELOADING=1") }
        try await daemon.waitForReady(after: reloading)
        try await daemon.deliver(SIGUSR2)
        try await waitUntil("the debug line after the reload", detail: { output() }) { output().contains(ignored) }
        #expect(output().components(separatedBy: ignored).count == 2, "only the second SIGUSR2's: \(output())")

        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0, "\(daemon.stderr)")
        #expect(output().contains("mydaemon: event=teardown module=store [MyDaemonModules] store closed"), "\(output())")
        #expect(!daemon.stderr.contains("store holds"), "the daemon's lines go to the program's handler only: \(daemon.stderr)")
        #expect(!daemon.stderr.contains("can only be initialized once"), "\(daemon.stderr)")
    }

    @Test func aLogTargetInTheFileIsNotAppliedAndSaysSo() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("my.yaml", "log: {target: stderr}\nmodules: []\n")
        let daemon = try Self.start(config, in: directory)
        try await daemon.waitForReady()
        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0, "\(daemon.stderr)")
        let output = try String(contentsOfFile: directory.file("stdout"), encoding: .utf8)
        #expect(output.contains(
            "notice mydaemon: [HiveDaemon] log.target stderr is not applied: the process's swift-log handler writes the daemon's lines"),
            "\(output)")
    }
}
