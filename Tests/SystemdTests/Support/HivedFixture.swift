import Foundation
import TestSupport

/// hived installed from its Debian package in a booted container, plus what the suite's
/// tests need to drive it: a fresh configuration per test and the probe files.
final class HivedFixture: Sendable {
    /// The fixtures of the running suite, one per release it boots, or why that release
    /// could not be booted and installed (set by ``BootedSystemd``).
    @TaskLocal static var booted: [SystemdRelease: Result<HivedFixture, TestFailure>] = [:]

    /// The running suite's fixture for `release`; throws why there is none.
    static func fixture(for release: SystemdRelease) throws -> HivedFixture {
        guard let fixture = booted[release] else {
            throw TestFailure("no container runs \(release.testDescription): the suite's tests run only inside its booted containers")
        }
        return try fixture.get()
    }

    /// The unit under test.
    static let unit = "hived.service"
    /// The configuration file the packaged unit runs.
    static let configPath = "/etc/hived/hived.yaml"
    /// Where test configurations put probe files (the unit may write only below its
    /// StateDirectory).
    static let stateDirectory = "/var/lib/hived"

    let container: SystemdContainer
    /// The systemd release the container runs.
    var release: SystemdRelease { container.release }
    /// The package installed, on this machine.
    let package: String
    /// The same package inside the container.
    let packageInside: String
    /// `dpkg -i`'s result.
    let installation: CommandResult
    /// `systemctl is-active hived` right after `dpkg -i`.
    let activeAfterInstall: String
    /// `systemctl status hived` right after `dpkg -i`.
    let statusAfterInstall: CommandResult

    private init(
        container: SystemdContainer, package: String, packageInside: String, installation: CommandResult,
        activeAfterInstall: String, statusAfterInstall: CommandResult
    ) {
        self.container = container
        self.package = package
        self.packageInside = packageInside
        self.installation = installation
        self.activeAfterInstall = activeAfterInstall
        self.statusAfterInstall = statusAfterInstall
    }

    /// The package's root directory (this file is Tests/SystemdTests/Support/…).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The .deb to install: `HIVED_DEB` if set, else what `scripts/build-deb` builds
    /// (incremental: fast when scripts/test or a previous run built it already).
    static func buildPackage() async throws -> String {
        if let deb = ProcessInfo.processInfo.environment["HIVED_DEB"], !deb.isEmpty { return deb }
        let result = try await Command.check(
            ["sh", "-c", "cd \"$1\" && scripts/build-deb", "build-deb", packageRoot], timeout: .seconds(1200))
        guard let deb = result.output.split(separator: "\n").last.map(String.init),
            FileManager.default.fileExists(atPath: deb.hasPrefix("/") ? deb : packageRoot + "/" + deb)
        else { throw TestFailure("scripts/build-deb printed no package path: \(result)") }
        return deb.hasPrefix("/") ? deb : packageRoot + "/" + deb
    }

    /// The root file system `release` boots from: this machine's `/` for systemd 252; for
    /// 257 a debootstrap of Debian 13 with what `package` depends on and recommends, and the
    /// tools the suite drives hived with (`scripts/lib/debian-root`: made once, a few
    /// minutes, then cached outside the clone).
    static func rootFileSystem(for release: SystemdRelease, package: String) async throws -> String {
        guard let suite = release.debootstrapSuite else { return "/" }
        let fields = try await Command.check(["dpkg-deb", "-f", package, "Depends", "Recommends"]).stdout
        let needs = fields.split(separator: "\n").compactMap { line in
            line.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
        }
        let depends = (needs + Self.suiteTools).joined(separator: ", ")
        let started = ContinuousClock.now
        let result = try await Command.check(
            [packageRoot + "/scripts/lib/debian-root", suite, depends], timeout: .seconds(1500))
        if result.stderr.contains("building") {
            print("hived systemd suite: made the \(release.debian) root in \(ContinuousClock.now - started) (cached from now on)")
        }
        guard let tree = result.output.split(separator: "\n").last.map(String.init), tree.hasPrefix("/") else {
            throw TestFailure("scripts/lib/debian-root printed no tree: \(result)")
        }
        return tree
    }

    /// What the suite runs in a container beside systemd's own tools: `ps` (procps) and
    /// `curl` (the example daemon's test).
    static let suiteTools = ["procps", "curl"]

    /// Installs `package` with `dpkg -i` the way an administrator would, and records
    /// whether that left the service running.
    static func install(_ package: String, in container: SystemdContainer) async throws -> HivedFixture {
        let inside = "/var/cache/hived-suite/" + URL(fileURLWithPath: package).lastPathComponent
        try FileManager.default.createDirectory(
            atPath: container.hostPath("/var/cache/hived-suite"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: package, toPath: container.hostPath(inside))
        // This machine is a Docker image whose policy-rc.d forbids starting services; the
        // container stands for a real Debian machine, which has none. (Removed in the
        // overlay only; a debootstrapped tree has none.)
        try await container.check(["rm", "-f", "/usr/sbin/policy-rc.d"])
        let installation = try await container.exec(["dpkg", "-i", inside], timeout: .seconds(300))
        let active = try await container.systemctl("is-active", unit).output
        let status = try await container.systemctl("status", unit)
        return HivedFixture(
            container: container, package: package, packageInside: inside, installation: installation,
            activeAfterInstall: active, statusAfterInstall: status)
    }

    /// Stops hived, clears its failed state and probe files, and installs `config` as
    /// /etc/hived/hived.yaml, ready for the test to start it.
    func prepare(config: String) async throws {
        try await container.systemctl("stop", Self.unit, timeout: .seconds(120))
        try await container.systemctl("reset-failed", Self.unit)
        try await container.check(["sh", "-c", "rm -f \(Self.stateDirectory)/*.jsonl \(Self.stateDirectory)/release-*"])
        try container.write(config, to: Self.configPath)
    }

    /// Replaces the configuration file (for a reload).
    func writeConfig(_ config: String) throws {
        try container.write(config, to: Self.configPath)
    }

    /// The events a probe recorded in /var/lib/hived/NAME.jsonl; throws on a line that
    /// is not a probe record.
    func probe(_ name: String) throws -> [ProbeRecord] {
        let path = "\(Self.stateDirectory)/\(name).jsonl"
        return try ProbeRecord.parse(container.read(path) ?? "", file: path)
    }

    /// `module.event` for every line of the probe file NAME.jsonl.
    func steps(_ name: String) throws -> [String] { try probe(name).steps }

    /// The probe file's steps, or why it cannot be read, for a failure message.
    func shown(_ name: String) -> String {
        do { return try "\(probe(name).steps)" } catch { return "\(error)" }
    }

    /// Where a test's `stall_until` waits for a file: /var/lib/hived/NAME (removed by
    /// ``prepare(config:)``).
    static func releasePath(_ name: String) -> String { "\(stateDirectory)/\(name)" }

    /// Creates the file a probe's `stall_until` waits for, ending its stall.
    func release(_ name: String) throws {
        try container.write("", to: Self.releasePath(name))
    }

    /// A property of hived.service (`systemctl show -p NAME`).
    func property(_ name: String) async throws -> String {
        try await container.property(Self.unit, name)
    }

    /// The environment systemd started process `pid` (a pid inside the container) with.
    func environment(of pid: String) async throws -> [String: String] {
        let block = try await container.check(["cat", "/proc/\(pid)/environ"]).stdout
        var environment: [String: String] = [:]
        for entry in block.split(separator: "\0") {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return environment
    }

    /// `systemctl kill -s SIGNAL hived.service`; throws, with what systemctl said, unless
    /// it succeeded.
    func kill(_ signal: String) async throws {
        let result = try await systemctl("kill", "-s", signal)
        guard result.status == 0 else { throw TestFailure(result.description) }
    }

    /// `systemctl ARGS hived.service`.
    @discardableResult
    func systemctl(_ verb: String, _ arguments: String..., timeout: Duration = .seconds(120)) async throws
        -> CommandResult
    {
        try await container.exec(["systemctl", "--no-pager", verb] + arguments + [Self.unit], timeout: timeout)
    }
}
