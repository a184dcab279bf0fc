import Foundation
import TestSupport

/// Short runs of a daemon's command line, and waiting for a long-running one's log lines.
enum ExampleCommand {
    /// What a command printed and its exit status.
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `executable ARGUMENTS` to its end in a clean environment (plus `environment`).
    /// Waits without holding a thread of the pool (other tests may be blocking theirs), and
    /// collects the output through files, so a chatty command cannot fill a pipe.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> Result {
        let directory = try TestDirectory()
        let (out, err) = (directory.file("stdout"), directory.file("stderr"))
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: err)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try SystemdSignalMask.spawning { try process.run() }
            } catch {
                continuation.resume(throwing: error)
            }
        }
        return Result(
            status: process.terminationStatus,
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    /// Waits until `daemon` wrote `text` to stderr (`occurrences` times); fails after `timeout`.
    static func waitFor(
        _ daemon: HivedProcess, _ text: String, occurrences: Int = 1, timeout: Duration = .seconds(20)
    ) async throws {
        try await waitUntil("'\(text)'", timeout: timeout, detail: { "stderr:\n\(daemon.stderr)" }) {
            daemon.stderr.components(separatedBy: text).count - 1 >= occurrences
        }
    }
}
