import HiveKit
extension DaemonConfiguration {
    /// Reads, validates and overrides the file at `path`; the same as
    /// ``ConfigurationLoader/load(path:catalog:overrides:daemonName:)``.
    ///
    /// - Throws: ``HiveError`` at `path:line` for invalid content, or saying why the file
    ///   cannot be read.
    public static func load(
        path: String,
        catalog: ModuleCatalog? = nil,
        overrides: ConfigurationOverrides = .none,
        daemonName: String = "the daemon"
    ) throws(HiveError) -> DaemonConfiguration {
        try ConfigurationLoader.load(path: path, catalog: catalog, overrides: overrides, daemonName: daemonName)
    }

    /// Validates and overrides configuration `text`; the same as
    /// ``ConfigurationLoader/parse(_:path:catalog:overrides:daemonName:)``.
    ///
    /// - Throws: ``HiveError`` at `path:line` (`<embedded>:line` when `path` is `nil`).
    public static func parse(
        _ text: String,
        path: String? = nil,
        catalog: ModuleCatalog? = nil,
        overrides: ConfigurationOverrides = .none,
        daemonName: String = "the daemon"
    ) throws(HiveError) -> DaemonConfiguration {
        try ConfigurationLoader.parse(text, path: path, catalog: catalog, overrides: overrides, daemonName: daemonName)
    }
}
