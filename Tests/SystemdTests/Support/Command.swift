import Foundation
import TestSupport

/// Runs host commands for the suite, without blocking a Swift concurrency thread.
enum Command {
    /// Runs `arguments` (looked up on PATH) to completion; after `timeout` it is killed
    /// with everything it started (`timeout(1)` signals its whole process group, so a
    /// killed `nsenter` leaves no child behind holding this process's descriptors) and its
    /// status is `timeout`'s (124, or 137 after SIGKILL). Output goes through files, so a
    /// chatty command can never block on a full pipe.
    static func run(_ arguments: [String], timeout: Duration = .seconds(120)) async throws -> CommandResult {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("hived-systemd-cmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("out")
        let errURL = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let seconds = max(1, timeout.components.seconds)
        process.arguments = ["timeout", "--kill-after=10", "\(seconds)"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let (exits, exited) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { finished in
            exited.yield(finished.terminationReason == .uncaughtSignal
                ? 128 + finished.terminationStatus : finished.terminationStatus)
            exited.finish()
        }
        try process.run()
        let pid = process.processIdentifier
        // A last resort, should timeout(1) itself be stuck.
        let timer = Task.detached {
            try await Task.sleep(for: timeout + .seconds(30))
            kill(pid, SIGKILL)
        }
        // Foundation's Process sometimes never reports an exit (the child is left a zombie and
        // the suite hangs, seen under load); look for the exit ourselves too, without reaping
        // the child (WNOWAIT), so whichever notices first ends the wait.
        let watcher = Task.detached {
            while !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(250))
                var info = siginfo_t()
                guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
                    info._sifields._sigchld.si_pid == pid
                else { continue }
                let code = info._sifields._sigchld.si_status
                exited.yield(info.si_code == Int32(CLD_EXITED) ? code : 128 + code)
                exited.finish()
                return
            }
        }
        var status: Int32 = -1
        for await exit in exits {
            status = exit
            break
        }
        timer.cancel()
        watcher.cancel()
        return CommandResult(
            arguments: arguments, status: status,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    /// Runs `arguments` and returns the result, throwing unless it exited 0.
    @discardableResult
    static func check(_ arguments: [String], timeout: Duration = .seconds(120)) async throws -> CommandResult {
        let result = try await run(arguments, timeout: timeout)
        guard result.status == 0 else { throw TestFailure(result.description) }
        return result
    }
}
