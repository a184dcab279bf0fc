import HiveKit
/// One field of a journal entry: `NAME=value`.
///
/// Journal field names are 1 to 64 characters of `A-Z`, `0-9` and `_`, not starting with a
/// digit or with `_` (those are journald's trusted fields). ``metadataName(forKey:)`` maps a
/// swift-log metadata key onto such a name.
struct JournalField: Sendable, Hashable, CustomStringConvertible {
    /// The field name, e.g. `HIVE_MODULE`.
    let name: String
    /// The field value; may contain newlines (libsystemd then uses the binary form).
    let value: String

    /// Makes a field. The caller keeps `name` to the journal's rules.
    init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `NAME=value`, as handed to `sd_journal_sendv`.
    var assignment: String { name + "=" + value }

    /// `NAME=value`.
    var description: String { assignment }

    /// The longest field name journald accepts.
    static let maximumNameLength = 64

    /// `HIVE_` followed by `key` upper-cased, every character outside `A-Z`, `0-9` and `_`
    /// replaced by `_`, cut to 64 characters: `module` → `HIVE_MODULE`,
    /// `request-id` → `HIVE_REQUEST_ID`, `ünïcode` → `HIVE__N_CODE`.
    static func metadataName(forKey key: String) -> String {
        var name = "HIVE_"
        for scalar in key.unicodeScalars {
            guard name.utf8.count < maximumNameLength else { break }
            switch scalar {
            case "A"..."Z", "0"..."9", "_": name.unicodeScalars.append(scalar)
            case "a"..."z": name.unicodeScalars.append(Unicode.Scalar(scalar.value - 32)!)
            default: name.unicodeScalars.append("_")
            }
        }
        return name
    }
}
