import Foundation
import TestSupport

/// A systemd booted with `systemd-nspawn` over a copy-on-write view of a root file system
/// (this machine's `/` for systemd 252, a cached Debian 13 tree for 257), so the suite can
/// install and drive hived under a real service manager while nothing on the machine, nor
/// in the cached tree, changes.
///
/// Layout under ``directory`` (`/tmp/hived-systemd-suite.XXXXXX`): `layer` is a tmpfs
/// holding the overlay's `upper` and `work` directories (a tmpfs also keeps overlayfs
/// from seeing the upper directory inside its own lower layer `/`), and `merged` is the
/// overlay the container boots from. Everything the container writes lands in the tmpfs.
///
/// The container is stopped and everything removed by ``shutdown()``; if the test process
/// dies first, a guardian process started with the container does the same.
final class SystemdContainer: Sendable {
    /// The systemd release it runs.
    let release: SystemdRelease
    /// The temporary directory holding the layers, logs and pid files.
    let directory: String
    /// The container's machine name (also its hostname).
    let machine: String
    /// The pid (on this machine) of the container's PID 1, systemd.
    let leader: Int32

    /// The container's root directory as seen from this machine: write a file under it
    /// and the container sees it at the same path.
    var root: String { directory + "/merged" }

    private init(release: SystemdRelease, directory: String, machine: String, leader: Int32) {
        self.release = release
        self.directory = directory
        self.machine = machine
        self.leader = leader
    }

    /// `path` inside the container, as a path on this machine.
    func hostPath(_ path: String) -> String { root + path }

    /// Mounts an overlay of `lower` (a root file system holding `release`'s systemd), boots
    /// systemd in it and waits until it finished booting. Cleans up after itself when any
    /// step fails.
    static func boot(_ release: SystemdRelease, lower: String) async throws -> SystemdContainer {
        var template = Array("/tmp/hived-systemd-suite.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: errno \(errno)") }
        let directory = String(cString: made)
        let owner = getpid()
        let machine = "hived-suite-\(owner)-\(release.rawValue)"
        // A tree of its own has no Swift runtime: bind this machine's read-only, for the
        // example daemon built in debug (its README's installation needs one).
        let binds = release.debootstrapSuite != nil && FileManager.default.fileExists(atPath: "/opt/swift")
            ? ["--bind-ro=/opt/swift"] : []
        do {
            try await Command.check(["sh", "-c", Self.mountScript, "mount", directory, lower])
            try await Command.check([
                "bash", "-c", Self.launchScript, "launch", directory, "\(owner)", machine, Self.stopScript,
                release.unifiedCgroups ? "1" : "",
            ] + binds)
            let leader = try await waitForLeader(directory: directory)
            try String(leader).write(toFile: directory + "/leader.pid", atomically: true, encoding: .utf8)
            let container = SystemdContainer(release: release, directory: directory, machine: machine, leader: leader)
            try await container.waitUntilBooted()
            return container
        } catch {
            let log = (try? String(contentsOfFile: directory + "/nspawn.log", encoding: .utf8)) ?? ""
            _ = try? await Command.run(["sh", "-c", Self.stopScript, "stop", directory, machine])
            throw TestFailure("booting \(release.testDescription) in a container failed: \(error)\n--- nspawn log\n\(log)")
        }
    }

    /// Powers the container off (SIGKILL after 30 s), unmounts the overlay and the tmpfs,
    /// and removes the temporary directory.
    func shutdown() async {
        let result = try? await Command.run(
            ["sh", "-c", Self.stopScript, "stop", directory, machine], timeout: .seconds(90))
        if let result, result.status != 0 {
            print("hived systemd suite: cleaning up \(directory) failed: \(result)")
        }
    }

    /// Waits for nspawn's child, the container's systemd, to appear.
    private static func waitForLeader(directory: String) async throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOfFile: directory + "/nspawn.pid", encoding: .utf8),
                let nspawn = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                let children = try? String(contentsOfFile: "/proc/\(nspawn)/task/\(nspawn)/children", encoding: .utf8)
            {
                for child in children.split(separator: " ").compactMap({ Int32($0) }) {
                    let comm = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? ""
                    if comm == "systemd\n" { return child }
                }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("systemd-nspawn started no systemd within 30 s")
    }

    /// Waits until the container's systemd finished booting (running or degraded). Its
    /// manager socket appears a moment after PID 1 does, so connection failures are retried.
    private func waitUntilBooted() async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        var last: CommandResult?
        while ContinuousClock.now < deadline {
            let result = try await exec(["systemctl", "is-system-running", "--wait"], timeout: .seconds(120))
            if result.output == "running" || result.output == "degraded" { return }
            last = result
            try await Task.sleep(for: .milliseconds(200))
        }
        throw TestFailure("the container's systemd did not finish booting: \(last.map(String.init(describing:)) ?? "")")
    }
}
