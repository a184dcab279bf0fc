import Foundation

/// Short runs of a daemon's command line, and waiting for a long-running one's log lines.
enum ExampleCommand {
    /// What a command printed and its exit status.
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `executable ARGUMENTS` to its end in a clean environment (plus `environment`).
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { _, new in new }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Waits until `daemon` wrote `text` to stderr (`occurrences` times); fails after `timeout`.
    static func waitFor(
        _ daemon: HivedProcess, _ text: String, occurrences: Int = 1, timeout: Duration = .seconds(20)
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while daemon.stderr.components(separatedBy: text).count - 1 < occurrences {
            guard ContinuousClock.now < deadline else {
                throw TestFailure("timed out waiting for '\(text)'; stderr:\n\(daemon.stderr)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
