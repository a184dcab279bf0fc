import HiveKit
extension DaemonConfiguration {
    /// Reads, validates and overrides the file at `path`; the same as
    /// ``ConfigurationLoader/load(path:catalog:environment:)``.
    ///
    /// - Throws: ``HiveError`` at `path:line` for invalid content, or saying why the file
    ///   cannot be read.
    public static func load(
        path: String,
        catalog: ModuleCatalog? = nil,
        environment: [String: String] = ConfigurationLoader.processEnvironment()
    ) throws(HiveError) -> DaemonConfiguration {
        try ConfigurationLoader.load(path: path, catalog: catalog, environment: environment)
    }

    /// Validates and overrides configuration `text`; the same as
    /// ``ConfigurationLoader/parse(_:path:catalog:environment:)``.
    ///
    /// - Throws: ``HiveError`` at `path:line` (`<embedded>:line` when `path` is `nil`).
    public static func parse(
        _ text: String,
        path: String? = nil,
        catalog: ModuleCatalog? = nil,
        environment: [String: String] = ConfigurationLoader.processEnvironment()
    ) throws(HiveError) -> DaemonConfiguration {
        try ConfigurationLoader.parse(text, path: path, catalog: catalog, environment: environment)
    }
}
