import Foundation
import TestSupport

/// The independent Varlink client the control tests drive hived with: PyPI's `varlink`
/// package in the virtual environment `scripts/install-deps` creates, run through
/// `varlink_driver.py` beside this file.
enum VarlinkPython {
    /// The repository's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("varlink_driver.py").path

    /// The virtual environment's Python (`HIVED_VARLINK_VENV`, else `.build-venv`).
    static func python() throws -> String {
        let venv = ProcessInfo.processInfo.environment["HIVED_VARLINK_VENV"].map { $0.hasPrefix("/") ? $0 : root.path + "/" + $0 }
            ?? root.path + "/.build-venv"
        let python = venv + "/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw TestFailure("no Varlink client at \(python): run scripts/install-deps (scripts/test does)")
        }
        return python
    }

    /// Runs the driver with `arguments` (as `user` through setpriv, if given) and returns
    /// its output lines as JSON objects.
    static func run(_ arguments: [String], as user: PeerIdentity? = nil, timeout: Duration = .seconds(30)) throws -> String {
        let process = Process()
        var command = [try python(), driver] + arguments
        if let user { command = ["/usr/bin/setpriv"] + user.setprivArguments + ["--"] + command }
        // At nice 10, Python's start-up leaves the CPU to the other tests' timed hooks.
        command = ["/usr/bin/nice", "-n", "10"] + command
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let deadline = ContinuousClock.now + timeout
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        while process.isRunning, ContinuousClock.now < deadline { usleep(1000) }
        if process.isRunning {
            process.terminate()
            throw TestFailure("varlink_driver \(arguments) timed out")
        }
        guard process.terminationStatus == 0 else {
            throw TestFailure("varlink_driver \(arguments) exited \(process.terminationStatus): \(errorText)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// ``run(_:as:timeout:)`` on a thread of its own (see ``blocking(_:)``).
    static func runInBackground(_ arguments: [String], as user: PeerIdentity? = nil) async throws -> [[String: Any]] {
        try lines(await blocking { try run(arguments, as: user) })
    }

    /// One call: `["reply": parameters]`, or `["error": name, "parameters": …]`.
    static func call(_ socket: String, _ method: String, _ parameters: [String: Any] = [:], as user: PeerIdentity? = nil) async throws -> [String: Any] {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: parameters), as: UTF8.self)
        guard let result = try await runInBackground([socket, "call", method, json], as: user).first else {
            throw TestFailure("no output from varlink_driver for \(method)")
        }
        return result
    }

    /// A subscriber writing each reply as a JSON line to `output`, until `event` was delivered.
    static func subscribe(_ socket: String, until event: String, output: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
        process.arguments = ["-n", "10", try python(), driver, socket, "subscribe", event]
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: output)
        try process.run()
        return process
    }

    /// The JSON objects of `text`, one per line.
    static func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw TestFailure("not a JSON object: \(line)")
            }
            return object
        }
    }
}

/// Another user for a client process, through `setpriv`.
struct PeerIdentity {
    let setprivArguments: [String]

    /// `nobody`, group `nogroup`, no supplementary groups.
    static let nobody = PeerIdentity(setprivArguments: ["--reuid=nobody", "--regid=nogroup", "--clear-groups"])

    /// `nobody` with `group` as its only supplementary group.
    static func nobody(withGroup group: String) -> PeerIdentity {
        PeerIdentity(setprivArguments: ["--reuid=nobody", "--regid=nogroup", "--groups=\(group)"])
    }
}
