import Foundation
import TestSupport
import Testing

/// hived declares its `reporter` module type and its `SystemClock` service with
/// annotations, not catalog code. Both builds must find them: the debug build, and the
/// packaged one (`--static-swift-stdlib`, linked by lld with packed relative relocations,
/// stripped), taken from the `.deb` that `HIVED_DEB` names (`scripts/test` sets it).
@Suite struct AnnotationTests {
    static var builds: [String] {
        ["debug"] + (ProcessInfo.processInfo.environment["HIVED_DEB"] == nil ? [] : ["packaged"])
    }

    /// The hived binary of `build`; the packaged one is unpacked into `directory`.
    static func executable(_ build: String, in directory: TestDirectory) async throws -> URL {
        guard build == "packaged", let deb = ProcessInfo.processInfo.environment["HIVED_DEB"] else {
            return HivedProcess.executable
        }
        let unpack = try await ExampleCommand.run(
            URL(fileURLWithPath: "/usr/bin/dpkg-deb"), ["-x", deb, directory.file("root")])
        guard unpack.status == 0 else { throw TestFailure("dpkg-deb -x \(deb) failed: \(unpack.stderr)") }
        return URL(fileURLWithPath: directory.file("root/usr/bin/hived"))
    }

    @Test(arguments: builds)
    func checkConfigKnowsTheAnnotatedTypes(build: String) async throws {
        let directory = try TestDirectory()
        let hived = try await Self.executable(build, in: directory)
        let good = try directory.write("good.yaml", """
            modules: [{name: reporter, type: reporter}]
            services: [{service: WallClock, implementation: SystemClock}]
            """)
        let check = try HivedProcess(["check-config", good], in: directory, notify: false, executable: hived)
        #expect(try await check.exitStatus() == 0, "\(check.stderr)")

        let bad = try directory.write("bad.yaml", "modules: [{name: x, type: reportr}]\n")
        let failing = try HivedProcess(["check-config", bad], in: directory, notify: false, executable: hived)
        #expect(try await failing.exitStatus() == 78)
        #expect(failing.stderr.contains("unknown module type 'reportr' (known: echo, echo-server, heartbeat, probe, reporter)"), "\(failing.stderr)")
    }

    @Test(arguments: builds)
    func theAnnotatedModuleUsesTheAnnotatedService(build: String) async throws {
        let directory = try TestDirectory()
        let hived = try await Self.executable(build, in: directory)
        let config = try directory.write("hived.yaml", """
            log: {level: info, target: stderr}
            signals: {SIGUSR1: "custom:stats"}
            modules:
              - {name: heartbeat, type: heartbeat, settings: {interval: 1h}}
              - {name: reporter, type: reporter}
            services: [{service: WallClock, implementation: SystemClock}]
            """)
        let process = try HivedProcess(["--config", config], in: directory, executable: hived)
        try await process.waitForReady()
        try await process.deliver(SIGUSR1)
        try await process.waitForStderr(containing: "the heartbeat has beaten 0 times")
        // "at 12:34:56 …" only if the reporter resolved SystemClock; without it, "at now …".
        #expect(process.stderr.contains(try Regex(#"at \d\d:\d\d:\d\d the heartbeat has beaten 0 times"#)), "\(process.stderr)")
        process.signal(SIGTERM)
        #expect(try await process.exitStatus() == 0)
    }
}
