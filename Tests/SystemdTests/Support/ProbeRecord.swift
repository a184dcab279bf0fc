import Foundation

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

    /// Every complete line of `text` that parses (a line being written is skipped).
    static func parse(_ text: String) -> [ProbeRecord] {
        text.split(separator: "\n").compactMap { line in
            try? JSONDecoder().decode(ProbeRecord.self, from: Data(line.utf8))
        }
    }

    var description: String { "\(module).\(event)" + (name.map { ":\($0)" } ?? "") }
}

extension [ProbeRecord] {
    /// `module.event` for each record, in order, for readable expectations.
    var steps: [String] { map(\.description) }
}
