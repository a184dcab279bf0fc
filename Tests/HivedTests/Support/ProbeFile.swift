import Foundation
import TestSupport

/// The JSON lines a `probe` module wrote, read back.
struct ProbeFile {
    struct Line: Equatable, CustomStringConvertible {
        let module: String
        let event: String
        let name: String?
        let params: [String: String]
        /// When the probe wrote the line (`ts`, `CLOCK_REALTIME`).
        let time: Duration

        var description: String { "\(module).\(name.map { "custom:\($0)" } ?? event)" }
    }

    let lines: [Line]

    /// Reads the file at `path` (no file: no lines). Every line the probe finished (it ends
    /// in a newline) must parse, or this throws; a last line without its newline is one
    /// still being written and is left for the next read.
    init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            lines = []
            return
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var complete = text.split(separator: "\n", omittingEmptySubsequences: false)
        complete.removeLast()  // after the last newline: empty, or a line being written
        lines = try complete.map { raw in
            let object = try? JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any]
            guard let object, let module = object["module"] as? String, let event = object["event"] as? String,
                let ts = Self.timestamp(raw)
            else { throw TestFailure("malformed probe line in \(path): \(raw)") }
            return Line(
                module: module, event: event, name: object["name"] as? String,
                params: object["params"] as? [String: String] ?? [:], time: ts)
        }
    }

    /// `module.event` for every line, in file order.
    var events: [String] { lines.map(\.description) }

    /// The modules that received `event`, in file order.
    func modules(receiving event: String) -> [String] {
        lines.filter { $0.event == event }.map(\.module)
    }

    /// Waits until the file at `path` has a line for which `predicate` holds; a malformed
    /// line fails at once. For a condition on the whole file, use `waitFor(_:_:until:)`.
    static func waitFor(
        _ path: String, timeout: Duration = .seconds(20), _ what: String,
        where predicate: (Line) -> Bool
    ) async throws -> ProbeFile {
        var file = ProbeFile(lines: [])
        try await waitUntil(what, timeout: timeout, detail: { "\(path) has \(file.events)" }) {
            file = try ProbeFile(path: path)
            return file.lines.contains(where: predicate)
        }
        return file
    }

    /// Waits until the whole file at `path` satisfies `condition` (e.g. two modules
    /// received `memoryWarning`) and returns the file as it was then; a malformed line
    /// fails at once.
    static func waitFor(
        _ path: String, timeout: Duration = .seconds(20), _ what: String,
        until condition: (ProbeFile) -> Bool
    ) async throws -> ProbeFile {
        var file = ProbeFile(lines: [])
        try await waitUntil(what, timeout: timeout, detail: { "\(path) has \(file.events)" }) {
            file = try ProbeFile(path: path)
            return condition(file)
        }
        return file
    }

    private init(lines: [Line]) { self.lines = lines }

    /// `"ts":SECONDS.MICROSECONDS` read exactly (a Double would round the microseconds).
    private static func timestamp(_ line: Substring) -> Duration? {
        guard let match = line.firstMatch(of: /"ts":([0-9]+)\.([0-9]{6})[,}]/),
            let seconds = Int64(match.1), let micros = Int64(match.2)
        else { return nil }
        return .seconds(seconds) + .microseconds(micros)
    }
}
