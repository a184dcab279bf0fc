import Foundation
import TestSupport
import Testing

/// hived's tools need neither `/proc` nor the executable's file (issue 27): annotations
/// are read from the loaded image, where the linker placed them, and the arguments from
/// what the loader hands the program. Run in a mount namespace whose `/proc` is an empty
/// tmpfs (a chroot, an early-boot or image-build step), `--version` and `check-config`
/// work, and `run` refuses at once with exit status 72, saying why (libdispatch, under the
/// Swift runtime's thread pool, stops the process without `/proc`). The tools also run as
/// an unprivileged user for whom the executable is execute-only, so that reading it would
/// fail. Both builds: the debug one, and the packaged one when `HIVED_DEB` names it
/// (``AnnotationTests/builds``).
@Suite struct WithoutProcTests {
    static let isCI = JournalStallTests.isCI
    static let canRun = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    /// `unshare -m`, an empty tmpfs over `/proc`, then the command that follows.
    static let withoutProc = [
        "/usr/bin/unshare", "-m", "--propagation", "private",
        "/bin/sh", "-c", #"mount -t tmpfs hived-no-proc /proc && exec "$@""#, "sh",
    ]

    static let config = """
        modules:
          - {name: reporter, type: reporter}
          - {name: heartbeat, type: heartbeat, settings: {interval: 1h}}
        services: [{service: WallClock, implementation: SystemClock}]
        """

    @Test(.enabled(if: canRun || isCI, "needs root, unshare(1) and setpriv(1)"), arguments: AnnotationTests.builds)
    func theToolsRunWithoutProcAndTheDaemonSaysWhyItCannot(build: String) async throws {
        try #require(Self.canRun, "CI requires this test: run it as root with unshare(1) and setpriv(1) installed")
        let directory = try TestDirectory()
        let hived = try await AnnotationTests.executable(build, in: directory)
        let config = try directory.write("hived.yaml", Self.config)

        let version = try await ExampleCommand.run(
            URL(fileURLWithPath: Self.withoutProc[0]), Array(Self.withoutProc.dropFirst()) + [hived.path, "--version"])
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout == "0.1.0\n", "\(version)")

        let check = try await ExampleCommand.run(
            URL(fileURLWithPath: Self.withoutProc[0]), Array(Self.withoutProc.dropFirst()) + [hived.path, "check-config", config])
        #expect(check.status == 0, "the annotated reporter and SystemClock are known: \(check.stderr)")

        let run = try HivedProcess(["run", "--config", config], in: directory, executable: hived, launcher: Self.withoutProc)
        #expect(try await run.exitStatus() == 72, "EX_OSFILE, not a crash a second later: \(run.stderr)")
        #expect(run.stderr.hasPrefix("hived: cannot run without /proc (/proc/self/stat: No such file or directory)"), "\(run.stderr)")
        #expect(run.notify?.messages.isEmpty ?? false, "nothing started")
    }

    @Test(.enabled(if: canRun || isCI, "needs root, unshare(1) and setpriv(1)"), arguments: AnnotationTests.builds)
    func anExecuteOnlyExecutableNeedsNoReading(build: String) async throws {
        try #require(Self.canRun, "CI requires this test: run it as root with unshare(1) and setpriv(1) installed")
        let directory = try TestDirectory()
        let original = try await AnnotationTests.executable(build, in: directory)
        // A copy the unprivileged user may run but not read, in a directory it may enter.
        let hived = directory.file("execute-only/hived")
        try FileManager.default.createDirectory(atPath: directory.file("execute-only"), withIntermediateDirectories: true)
        try Self.copyForExec(original.path, to: hived)
        chmod(hived, 0o111)
        chmod(directory.path, 0o755)
        chmod(directory.file("execute-only"), 0o755)
        let config = try directory.write("hived.yaml", Self.config)
        chmod(config, 0o644)
        let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups", hived]
        #expect(access(hived, R_OK) == 0, "root may read it; the user below may not")

        let version = try await ExampleCommand.run(URL(fileURLWithPath: "/usr/bin/setpriv"), nobody + ["--version"])
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout == "0.1.0\n", "\(version)")

        let check = try await ExampleCommand.run(URL(fileURLWithPath: "/usr/bin/setpriv"), nobody + ["check-config", config])
        #expect(check.status == 0, "\(check.stderr)")
        let bad = try directory.write("bad.yaml", "modules: [{name: r, type: reportr}]\n")
        chmod(bad, 0o644)
        let failing = try await ExampleCommand.run(URL(fileURLWithPath: "/usr/bin/setpriv"), nobody + ["check-config", bad])
        #expect(failing.status == 78)
        #expect(failing.stderr.contains("unknown module type 'reportr' (known: echo, echo-server, heartbeat, probe, reporter)"),
                "\(failing.stderr)")
    }

    /// Copies `source` to `destination` through a descriptor opened close-on-exec:
    /// `FileManager.copyItem` opens it without, so a child that another test's thread forks
    /// meanwhile inherits it open for writing, and executing the copy then fails with
    /// `ETXTBSY` ("Text file busy") until that child execs.
    static func copyForExec(_ source: String, to destination: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let descriptor = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o700)
        guard descriptor >= 0 else { throw TestFailure("open \(destination): \(errno)") }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw TestFailure("write \(destination): \(errno)") }
    }
}
