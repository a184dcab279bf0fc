import Foundation
import TestSupport

/// One line of a probe module's file: `{"module":…,"event":…,"name":…,"params":{…},"ts":…}`.
struct ProbeRecord: Decodable, Equatable, CustomStringConvertible {
    let module: String
    let event: String
    /// The custom event's name (custom events only).
    let name: String?
    /// The event's parameters (`reason: sleep`, a custom event's…).
    let params: [String: String]
    /// When the probe received the event (`CLOCK_REALTIME`, seconds).
    let ts: Double

    /// Every finished line of `text` (it ends in a newline), which must parse: a line that
    /// does not is an error naming it. A last line without its newline is one the probe is
    /// still writing, left for the next read.
    static func parse(_ text: String, file: String = "probe file") throws -> [ProbeRecord] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast()  // after the last newline: empty, or a line being written
        return try lines.map { line in
            do {
                return try JSONDecoder().decode(ProbeRecord.self, from: Data(line.utf8))
            } catch {
                throw TestFailure("\(file): a line that is not a probe record: \(line)")
            }
        }
    }

    var description: String { "\(module).\(event)" + (name.map { ":\($0)" } ?? "") }
}

extension [ProbeRecord] {
    /// `module.event` for each record, in order, for readable expectations.
    var steps: [String] { map(\.description) }
}
