/// Where a module's settings were written in a configuration file, so that a setting's
/// error names the line of its key and its full key path (`stall_on.teardown`).
package struct SettingsOrigin: Sendable {
    /// The line of a settings map (or of a key's value) and of each key below it: a tree
    /// as the settings are, so that no key path is built until an error needs one.
    package final class Lines: Sendable {
        /// The line this map or key is on.
        let line: Int
        /// The lines of the keys below, by key.
        package let children: [String: Lines]

        /// Lines of a map on `line` whose keys are `children`.
        package init(line: Int, children: [String: Lines] = [:]) {
            self.line = line
            self.children = children
        }
    }

    /// The file, as error locations name it.
    let file: String
    /// The lines of these settings (the module's own, or nested ones).
    let lines: Lines
    /// The keys from the module's settings down to these (`[]`, or `["stall_on"]` for the
    /// nested settings ``Settings/settings(_:)`` returns).
    let prefix: [String]

    /// The origin of settings written in `file`, with the line of each key.
    package init(file: String, lines: Lines) {
        self.init(file: file, lines: lines, prefix: [])
    }

    private init(file: String, lines: Lines, prefix: [String]) {
        self.file = file
        self.lines = lines
        self.prefix = prefix
    }

    /// The full path of `key` in these settings.
    func path(of key: String) -> String {
        (prefix + [key]).joined(separator: ".")
    }

    /// Where `key` is written, or else where these settings are.
    func location(of key: String?) -> SourceLocation {
        SourceLocation(path: file, line: key.flatMap { lines.children[$0]?.line } ?? lines.line)
    }

    /// The origin of the nested settings under `key`.
    func nested(_ key: String) -> SettingsOrigin {
        SettingsOrigin(file: file, lines: lines.children[key] ?? lines, prefix: prefix + [key])
    }
}
