import Foundation
import TestSupport

/// hived started with descriptors passed the way systemd passes them: at 3 and up, with
/// `LISTEN_FDS`, `LISTEN_FDNAMES`, and `LISTEN_PID` set to the child's own pid (through
/// `sh`, which `exec`s hived keeping its pid) or to another pid. Foundation's `Process`
/// closes every descriptor above 2 in the child, hence `posix_spawn`.
final class SpawnedHived: Sendable {
    /// Whose pid `LISTEN_PID` names.
    enum ListenPID { case child, other(Int32) }

    let pid: pid_t
    let stderrPath: String

    init(
        _ arguments: [String], in directory: TestDirectory, passing descriptors: [(name: String, descriptor: Int32)],
        listenPID: ListenPID = .child, environment: [String: String] = [:]
    ) throws {
        stderrPath = directory.path + "/hived-\(UUID().uuidString.prefix(8)).stderr"
        let errorFile = open(stderrPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard errorFile >= 0 else { throw TestFailure("open \(stderrPath): errno \(errno)") }
        defer { close(errorFile) }
        // Out of the way of 3, 4…, so placing them cannot overwrite one another.
        let high = descriptors.map { fcntl($0.descriptor, F_DUPFD_CLOEXEC, 100) }
        defer { high.forEach { close($0) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errorFile, 2)
        for (index, fd) in high.enumerated() { posix_spawn_file_actions_adddup2(&actions, fd, 3 + Int32(index)) }

        var env = ["PATH": "/usr/bin:/bin", "HIVED_LOG_TARGET": "stderr"]
        if !descriptors.isEmpty {
            env["LISTEN_FDS"] = "\(descriptors.count)"
            env["LISTEN_FDNAMES"] = descriptors.map(\.name).joined(separator: ":")
        }
        if case .other(let pid) = listenPID { env["LISTEN_PID"] = "\(pid)" }
        env.merge(environment) { _, new in new }
        let script = listenPID.isChild ? "export LISTEN_PID=$$; exec \"$0\" \"$@\"" : "exec \"$0\" \"$@\""
        let argv = ["/bin/sh", "-c", script, HivedProcess.executable.path] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var attributes = SystemdSignalMask.attributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/sh", &actions, &attributes, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw TestFailure("posix_spawn: \(spawned)") }
        pid = child
    }

    /// What hived wrote to stderr so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Sends a real signal.
    func signal(_ signal: Int32) { kill(pid, signal) }

    /// Waits for the exit status; kills hived and fails after `timeout`.
    func exitStatus(timeout: Duration = .seconds(30)) async throws -> Int32 {
        var status: Int32 = 0
        // Polls: another process's exit, seen through waitpid.
        guard await eventually(timeout: timeout, { waitpid(pid, &status, WNOHANG) != 0 }) else {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
            throw TestFailure("hived did not exit within \(timeout); stderr:\n\(stderr)")
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Waits until stderr contains `text`; fails after `timeout`.
    func waitForLog(_ text: String, timeout: Duration = .seconds(20)) async throws {
        try await waitUntil("'\(text)' in hived's stderr", timeout: timeout, detail: { "stderr:\n\(self.stderr)" }) {
            stderr.contains(text)
        }
    }

    /// Whether hived has a descriptor open on the socket with inode `inode` (from
    /// `/proc/PID/fd`; compared by inode, so a reused descriptor number cannot mislead).
    func holdsSocket(inode: UInt64) -> Bool {
        let directory = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.contains { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(entry)")) == "socket:[\(inode)]"
        }
    }

    deinit {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
        }
    }
}

extension SpawnedHived.ListenPID {
    var isChild: Bool { if case .child = self { true } else { false } }
}
