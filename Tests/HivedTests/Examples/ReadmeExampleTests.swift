import Foundation
import Testing

/// The README shows example code that `scripts/test` compiles: it must be the same text.
@Suite struct ReadmeExampleTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: ExampleBinary.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test(arguments: [
        "Examples/MyDaemon/Sources/mydaemon/MyDaemon.swift",
        "Examples/MyDaemon/Sources/mydaemon-lifecycle/LifecycleOnly.swift",
    ])
    func theReadmeShowsTheCompiledExample(_ path: String) throws {
        let readme = try Self.text("README.md")
        let source = try Self.text(path)
        #expect(readme.contains("```swift\n" + source + "```\n"), "README.md must show \(path) verbatim")
    }

    /// The `main` of a `DaemonProgram` that bootstraps its own logging: the README shows
    /// the compiled `static func main()`, out of its type.
    @Test func theReadmeShowsTheCompiledMainThatBootstrapsItsLogging() throws {
        let path = "Examples/MyDaemon/Sources/mydaemon-logging/MyDaemon.swift"
        let lines = try Self.text(path).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "    static func main() {"), "\(path) has a main of its own")
        let end = try #require(lines[start...].firstIndex(of: "    }"))
        let main = lines[start...end].map { $0.dropFirst(4) }.joined(separator: "\n")
        #expect(main.contains("LoggingSystem.bootstrap(") && main.contains("DaemonCommand<Self>.main()"), "\(main)")
        #expect(try Self.text("README.md").contains("```swift\n" + main + "\n```\n"), "README.md must show \(path)'s main verbatim")
    }
}
