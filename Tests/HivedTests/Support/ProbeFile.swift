import Foundation

/// The JSON lines a `probe` module wrote, read back.
struct ProbeFile {
    struct Line: Equatable, CustomStringConvertible {
        let module: String
        let event: String
        let name: String?
        let params: [String: String]

        var description: String { "\(module).\(name.map { "custom:\($0)" } ?? event)" }
    }

    let lines: [Line]

    init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            lines = []
            return
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        lines = try text.split(separator: "\n").map { raw in
            let object = try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any] ?? [:]
            guard let module = object["module"] as? String, let event = object["event"] as? String,
                object["ts"] is NSNumber
            else { throw TestFailure("malformed probe line: \(raw)") }
            return Line(
                module: module, event: event, name: object["name"] as? String,
                params: object["params"] as? [String: String] ?? [:])
        }
    }

    /// `module.event` for every line, in file order.
    var events: [String] { lines.map(\.description) }

    /// The modules that received `event`, in file order.
    func modules(receiving event: String) -> [String] {
        lines.filter { $0.event == event }.map(\.module)
    }

    /// Waits until the file at `path` has a line for which `predicate` holds.
    static func waitFor(
        _ path: String, timeout: Duration = .seconds(20), _ what: String,
        where predicate: (Line) -> Bool
    ) async throws -> ProbeFile {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let file = try? ProbeFile(path: path), file.lines.contains(where: predicate) { return file }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("timed out waiting for \(what) in \(path): \((try? ProbeFile(path: path).events) ?? [])")
    }
}
