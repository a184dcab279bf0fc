import Foundation
import TestSupport

/// The built `hived` binary, run as a child the way systemd runs it: with a
/// `NOTIFY_SOCKET` the test owns, real signals, and its exit status observed.
final class HivedProcess: @unchecked Sendable {
    // @unchecked: `process` is only touched through Foundation's thread-safe Process API.
    let process = Process()
    let stderrPath: String
    let notify: NotifySocket?

    /// The hived executable next to the test bundle in the build directory.
    static var executable: URL {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = exe.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("hived")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "hived")
    }

    /// Starts `hived ARGUMENTS` (or another daemon's `executable`) in `directory`, with a
    /// notify socket unless `notify` is false, and `environment` added to a clean
    /// environment; stderr goes to a file unless `standardError` names another one. With a
    /// `launcher` (`unshare …`), the executable's path and arguments follow the launcher's.
    /// Memory pressure is not watched (`MEMORY_PRESSURE_WATCH=/dev/null`) unless `environment`
    /// says otherwise, so the machine's own pressure never adds a `memoryWarning` to a test's
    /// events.
    init(
        _ arguments: [String], in directory: TestDirectory,
        notify: Bool = true, environment: [String: String] = [:], executable: URL = HivedProcess.executable,
        standardError: FileHandle? = nil, launcher: [String] = []
    ) throws {
        self.notify = notify ? try NotifySocket(directory: directory.path) : nil
        stderrPath = directory.path + "/hived.stderr"
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        var env = ["PATH": "/usr/bin:/bin", "HIVED_LOG_TARGET": "stderr", "MEMORY_PRESSURE_WATCH": "/dev/null"]
        if let socket = self.notify { env["NOTIFY_SOCKET"] = socket.path }
        env.merge(environment) { _, new in new }
        process.environment = env
        process.standardError = standardError ?? FileHandle(forWritingAtPath: stderrPath)
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try SystemdSignalMask.spawning { try process.run() }
    }

    var pid: Int32 { process.processIdentifier }

    /// Sends a real signal.
    func signal(_ signal: Int32) { kill(pid, signal) }

    /// What hived wrote to stderr so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits for hived to exit and returns its status, once every notification it sent
    /// has been read; fails (and kills it) after `timeout`.
    func exitStatus(timeout: Duration = .seconds(30)) async throws -> Int32 {
        do {
            try await waitUntil("hived to exit", timeout: timeout, detail: { "stderr:\n\(self.stderr)" }) {
                !process.isRunning
            }
        } catch {
            kill(pid, SIGKILL)
            throw error
        }
        try await notify?.drain()
        return process.terminationStatus
    }

    /// Sends `signal` and waits until hived has taken it: it is no longer pending on the
    /// process (hived blocks its signals and takes them with `sigwaitinfo`, handling each
    /// before it takes the next). Send only one signal at a time this way: of several
    /// pending ones, the lowest-numbered is taken first.
    func deliver(_ signal: Int32, timeout: Duration = .seconds(20)) async throws {
        kill(pid, signal)
        try await waitUntil("hived to take signal \(signal)", timeout: timeout) {
            guard process.isRunning, let pending = pendingSignals else { return true }
            return pending & (1 << UInt64(signal - 1)) == 0
        }
    }

    /// The signals pending on the whole process (`ShdPnd` in /proc/PID/status).
    var pendingSignals: UInt64? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("ShdPnd:") })
        else { return nil }
        return UInt64(line.dropFirst("ShdPnd:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    }

    /// Waits until hived's stderr contains `text`.
    func waitForStderr(containing text: String, timeout: Duration = .seconds(20)) async throws {
        try await waitUntil("'\(text)' on stderr", timeout: timeout, detail: { "stderr:\n\(self.stderr)" }) {
            stderr.contains(text)
        }
    }

    /// The process state letter from /proc (R, S, T for stopped…).
    var state: String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return String(stat[stat.index(close, offsetBy: 2)])
    }

    /// Waits until READY=1 arrived (after the first `skip` datagrams).
    @discardableResult
    func waitForReady(after skip: Int = 0, timeout: Duration = .seconds(20)) async throws -> Int {
        guard let notify else { throw TestFailure("no notify socket") }
        do {
            return try await notify.waitFor(after: skip, timeout: timeout, "READY=1") { $0.hasPrefix("READY=1") }
        } catch {
            // What hived said and where its threads are tell a slow start from a hung one.
            throw TestFailure(
                "\(error); state \(state ?? "gone"); stderr:\n\(stderr)\nthreads:\n\(threadStates)"
                    + (backtraces.map { "\nbacktraces:\n\($0)" } ?? ""))
        }
    }

    /// Every thread's call stack, from gdb (`thread apply all bt`, at most 30 s; each line
    /// cut at 200 characters), when gdb is installed: where a hung hived waits, by function
    /// and line, which a wait channel (a futex, for most of them) does not tell. A task
    /// suspended in an `await` is on no thread: every thread idle means one waits for a
    /// resume that never came.
    var backtraces: String? {
        let gdb = "/usr/bin/gdb"
        guard FileManager.default.isExecutableFile(atPath: gdb) else { return nil }
        let debugger = Process()
        debugger.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        debugger.arguments = ["30", gdb, "-nx", "-batch", "-p", "\(pid)", "-ex", "thread apply all bt"]
        let output = Pipe()
        debugger.standardOutput = output
        debugger.standardError = FileHandle(forWritingAtPath: "/dev/null")
        guard (try? debugger.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        debugger.waitUntilExit()
        return text.split(separator: "\n").filter { $0.hasPrefix("Thread ") || $0.hasPrefix("#") }
            .map { $0.prefix(200) }.joined(separator: "\n")
    }

    /// Each thread's name, state letter and kernel wait channel, one line each.
    var threadStates: String {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.sorted().map { task in
            let base = "/proc/\(pid)/task/\(task)"
            let name = (try? String(contentsOfFile: "\(base)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            let wchan = (try? String(contentsOfFile: "\(base)/wchan", encoding: .utf8)) ?? "?"
            let stat = (try? String(contentsOfFile: "\(base)/stat", encoding: .utf8)) ?? ""
            let state = stat.lastIndex(of: ")").map { String(stat[stat.index($0, offsetBy: 2)]) } ?? "?"
            return "\(task) \(name) \(state) \(wchan)"
        }.joined(separator: "\n")
    }

    deinit { if process.isRunning { kill(pid, SIGKILL) } }
}
