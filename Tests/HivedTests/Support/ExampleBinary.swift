import Foundation

/// An executable of a package in `Examples/`, built by `scripts/test` before the tests
/// (`swift build --package-path Examples/NAME --scratch-path .build`: this package's own
/// scratch directory, so that hived's modules, built for the tests, compile not again).
///
/// When it is missing the tests that need it are skipped, saying why, unless
/// `HIVE_EXAMPLES=require` (set by `scripts/test`, which builds them): then they fail.
enum ExampleBinary {
    /// The repository's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `.build/debug/PRODUCT`.
    static func url(product: String) -> URL {
        root.appendingPathComponent(".build/debug/\(product)")
    }

    /// Whether the tests of `product` run: it is built, or `HIVE_EXAMPLES=require` asks
    /// for a failure when it is not.
    static func isAvailable(product: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: url(product: product).path)
            || ProcessInfo.processInfo.environment["HIVE_EXAMPLES"] == "require"
    }
}
