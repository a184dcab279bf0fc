#if canImport(Glibc)
import Glibc
#endif

/// A ``KeyValueStore`` in memory, written whole to a snapshot file on demand (`SIGUSR1`,
/// `POST /snapshot`, teardown) and read back at start.
///
/// The file holds one `key<TAB>value` line per key, with `\`, tab and newline escaped; it
/// is written to `PATH.tmp`, synced, then renamed over `PATH`, so a crash leaves the old
/// snapshot or the new one, never half of one.
actor SnapshotStore: KeyValueStore {
    let path: String?
    private var entries: [String: String] = [:]

    init(path: String?) {
        self.path = path
    }

    func value(for key: String) -> String? { entries[key] }
    func set(_ value: String, for key: String) { entries[key] = value }
    func remove(_ key: String) -> Bool { entries.removeValue(forKey: key) != nil }
    func count() -> Int { entries.count }

    /// Reads the snapshot, if there is one; returns how many keys it held.
    func load() throws(SnapshotError) -> Int {
        guard let path, let text = try SnapshotFile.read(path) else { return 0 }
        entries = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard fields.count == 2 else { throw SnapshotError(path: path, reason: "malformed line '\(line)'") }
            entries[Self.unescape(fields[0])] = Self.unescape(fields[1])
        }
        return entries.count
    }

    /// Writes every key to the snapshot; returns how many. Without a path, writes nothing.
    func snapshot() throws(SnapshotError) -> Int {
        guard let path else { return 0 }
        var text = ""
        for key in entries.keys.sorted() {
            text += Self.escape(key) + "\t" + Self.escape(entries[key]!) + "\n"
        }
        try SnapshotFile.replace(path, with: text)
        return entries.count
    }

    static func escape(_ text: some StringProtocol) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    static func unescape(_ text: some StringProtocol) -> String {
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                result.append(character == "t" ? "\t" : character == "n" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
