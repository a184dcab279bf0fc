import Foundation

/// An executable of a package in `Examples/`, built by `scripts/test` before the tests
/// (`swift build --package-path Examples/NAME`).
///
/// When it is missing the tests that need it are skipped, saying why, unless
/// `HIVE_EXAMPLES=require` (set by `scripts/test`, which builds them): then they fail.
enum ExampleBinary {
    /// The repository's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Examples/PACKAGE/.build/debug/PRODUCT`.
    static func url(package: String, product: String) -> URL {
        root.appendingPathComponent("Examples/\(package)/.build/debug/\(product)")
    }

    /// Whether the tests of `product` run: it is built, or `HIVE_EXAMPLES=require` asks
    /// for a failure when it is not.
    static func isAvailable(package: String, product: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: url(package: package, product: product).path)
            || ProcessInfo.processInfo.environment["HIVE_EXAMPLES"] == "require"
    }
}
