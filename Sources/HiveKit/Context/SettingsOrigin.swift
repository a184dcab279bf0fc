/// Where a module's settings were written in a configuration file, so that a setting's
/// error names the line of its key and its full key path (`stall_on.teardown`).
package struct SettingsOrigin: Sendable {
    /// The file, as error locations name it.
    let file: String
    /// The line of each key by its path below `settings:`; `""` is the map itself.
    let lines: [String: Int]
    /// The path of these settings below the module's own (`""`, or `stall_on` for the
    /// nested settings ``Settings/settings(_:)`` returns).
    let prefix: String

    /// The origin of settings written in `file`, with the line of each key by its path.
    package init(file: String, lines: [String: Int], prefix: String) {
        self.file = file
        self.lines = lines
        self.prefix = prefix
    }

    /// The full path of `key` in these settings.
    func path(of key: String) -> String {
        prefix.isEmpty ? key : "\(prefix).\(key)"
    }

    /// Where `key` is written, or else where these settings are.
    func location(of key: String?) -> SourceLocation {
        let line = key.flatMap { lines[path(of: $0)] } ?? lines[prefix] ?? lines[""] ?? 1
        return SourceLocation(path: file, line: line)
    }

    /// The origin of the nested settings under `key`.
    func nested(_ key: String) -> SettingsOrigin {
        SettingsOrigin(file: file, lines: lines, prefix: path(of: key))
    }
}
