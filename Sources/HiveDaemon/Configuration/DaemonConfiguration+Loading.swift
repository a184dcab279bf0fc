import HiveKit

/// Reading and validating configuration files: the one way in.
///
/// Every problem is a ``/HiveKit/HiveError`` whose ``/HiveKit/HiveError/location`` is the `file:line` of
/// the offending key or value and whose message starts with the key path, so
/// `error.description` reads `hived.yaml:12: modules[2].priority: expected an integer, got 'high'`.
/// Codes: ``HiveError/Code/unknownModuleType`` for a type the catalog cannot build,
/// ``HiveError/Code/duplicateModule`` for a module name used twice,
/// ``HiveError/Code/duplicateRegistration`` for a service declared twice, and
/// ``HiveError/Code/invalidConfiguration`` for everything else (YAML syntax, unknown
/// keys, wrong types, bad values, an unreadable file, a bad override).
///
/// The whole file is validated before anything is returned; the first problem is thrown.
/// A key whose value is null (`key:` with nothing after it) takes its default.
extension DaemonConfiguration {
    /// Reads, parses and validates the file at `path`, then applies `overrides`.
    ///
    /// Blocks while the file is read.
    ///
    /// - Parameters:
    ///   - path: The file, as named in error locations and stored in ``path``.
    ///   - catalog: When given, every module's `type` must be known to it.
    ///   - overrides: Environment variables that override the file (see
    ///     ``ConfigurationOverrides``); none by default.
    ///   - daemonName: The daemon as messages name it (``DaemonIdentity/name``).
    /// - Throws: ``/HiveKit/HiveError`` for an unreadable file, a file that holds no configuration
    ///   at all (empty, or only comments: more likely a file caught half-written than the
    ///   defaults, which `{}` asks for), or any invalid content.
    public static func load(
        path: String,
        catalog: ModuleCatalog? = nil,
        overrides: ConfigurationOverrides = .none,
        daemonName: String = "the daemon"
    ) throws(HiveError) -> DaemonConfiguration {
        let text = try ConfigurationFile.contents(of: path)
        let parser = ConfigurationParser(path: path, catalog: catalog, requiresDocument: true, daemonName: daemonName)
        return try parser.parse(text).applyingOverrides(overrides)
    }

    /// Parses and validates configuration `text`, then applies `overrides`.
    ///
    /// - Parameters:
    ///   - text: YAML text; empty text or `{}` is the empty configuration.
    ///   - path: The file the text came from, for error locations; `nil` for embedded
    ///     text (locations then read `<embedded>:LINE`).
    ///   - catalog: When given, every module's `type` must be known to it.
    ///   - overrides: Environment variables that override the text (see
    ///     ``ConfigurationOverrides``); none by default.
    ///   - daemonName: The daemon as messages name it (``DaemonIdentity/name``).
    /// - Throws: ``/HiveKit/HiveError`` for any invalid content.
    public static func parse(
        _ text: String,
        path: String? = nil,
        catalog: ModuleCatalog? = nil,
        overrides: ConfigurationOverrides = .none,
        daemonName: String = "the daemon"
    ) throws(HiveError) -> DaemonConfiguration {
        let parser = ConfigurationParser(path: path, catalog: catalog, daemonName: daemonName)
        return try parser.parse(text).applyingOverrides(overrides)
    }
}
