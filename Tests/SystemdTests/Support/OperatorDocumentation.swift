import Foundation
import TestSupport

/// What the documentation tells an operator to type or write, read from HiveDaemon's
/// "Running under systemd" article itself, so the suite runs the steps exactly as the
/// article writes them and a change to either shows.
enum OperatorDocumentation {
    /// The article: `Sources/HiveDaemon/HiveDaemon.docc/RunningUnderSystemd.md`.
    static let path = HivedFixture.packageRoot + "/Sources/HiveDaemon/HiveDaemon.docc/RunningUnderSystemd.md"

    /// The text of the fenced block that follows the article's comment line naming `name` in
    /// parentheses (`<!-- Tests/SystemdTests runs these lines as written (NAME) -->`).
    static func block(_ name: String) throws -> String {
        let lines = try String(contentsOfFile: Self.path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        guard let marker = lines.firstIndex(where: { $0.hasPrefix("<!-- Tests/SystemdTests") && $0.contains("(\(name))") }),
            let open = lines[(marker + 1)...].firstIndex(where: { $0.hasPrefix("```") }),
            let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") })
        else { throw TestFailure("\(Self.path) has no block marked (\(name))") }
        return lines[(open + 1)..<close].joined(separator: "\n") + "\n"
    }

    /// The commands of the shell block named `name`: one per line, without its `# comment`.
    static func commands(_ name: String) throws -> [String] {
        try block(name).split(separator: "\n").compactMap { line in
            let command = line.split(separator: "#", maxSplits: 1).first.map(String.init) ?? ""
            let trimmed = command.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
    }
}
