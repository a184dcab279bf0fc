import HiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and validates hived configuration files.
///
/// Every problem is a ``HiveError`` whose ``HiveError/location`` is the `file:line` of
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
public enum ConfigurationLoader {
    /// The environment variables that override the file, in the order they are applied.
    ///
    /// `HIVED_ENVIRONMENT`, `HIVED_LOG_LEVEL`, `HIVED_LOG_TARGET`, `HIVED_BUDGET_EVENT`,
    /// `HIVED_BUDGET_STOP`.
    public static let overrideVariables = [
        "HIVED_ENVIRONMENT", "HIVED_LOG_LEVEL", "HIVED_LOG_TARGET", "HIVED_BUDGET_EVENT", "HIVED_BUDGET_STOP",
    ]

    /// Reads, parses and validates the file at `path`, then applies the overrides in
    /// `environment`.
    ///
    /// Blocks while the file is read.
    ///
    /// - Parameters:
    ///   - path: The file, as named in error locations and stored in ``DaemonConfiguration/path``.
    ///   - catalog: When given, every module's `type` must be known to it.
    ///   - environment: Variables that may override the file (see ``overrideVariables``);
    ///     by default the process's own.
    /// - Throws: ``HiveError`` for an unreadable file, a file that holds no configuration
    ///   at all (empty, or only comments: more likely a file caught half-written than the
    ///   defaults, which `{}` asks for), or any invalid content.
    public static func load(
        path: String,
        catalog: ModuleCatalog? = nil,
        environment: [String: String] = processEnvironment()
    ) throws(HiveError) -> DaemonConfiguration {
        let text = try ConfigurationFile.contents(of: path)
        let parser = ConfigurationParser(path: path, catalog: catalog, requiresDocument: true)
        return try parser.parse(text).applyingOverrides(from: environment)
    }

    /// Parses and validates configuration `text`, then applies the overrides in
    /// `environment`.
    ///
    /// - Parameters:
    ///   - text: YAML text; empty text or `{}` is the empty configuration.
    ///   - path: The file the text came from, for error locations; `nil` for embedded
    ///     text (locations then read `<embedded>:LINE`).
    ///   - catalog: When given, every module's `type` must be known to it.
    ///   - environment: Variables that may override the text (see ``overrideVariables``);
    ///     by default the process's own. Pass `[:]` for none.
    /// - Throws: ``HiveError`` for any invalid content.
    public static func parse(
        _ text: String,
        path: String? = nil,
        catalog: ModuleCatalog? = nil,
        environment: [String: String] = processEnvironment()
    ) throws(HiveError) -> DaemonConfiguration {
        let parser = ConfigurationParser(path: path, catalog: catalog)
        return try parser.parse(text).applyingOverrides(from: environment)
    }

    /// The override variables (``overrideVariables``) set in this process, read with `getenv`.
    public static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for name in overrideVariables {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}
