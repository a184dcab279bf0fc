import Foundation

/// What a finished command printed and how it exited.
struct CommandResult: Sendable, CustomStringConvertible {
    /// The command line, for messages.
    let arguments: [String]
    /// The exit status, or 128 + the signal number if a signal ended it.
    let status: Int32
    let stdout: String
    let stderr: String

    /// stdout without the trailing newline.
    var output: String { stdout.trimmingCharacters(in: .whitespacesAndNewlines) }

    var description: String {
        "`\(arguments.joined(separator: " "))` exited \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}
