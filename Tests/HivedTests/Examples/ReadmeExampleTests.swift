import Foundation
import Testing

/// The README shows example code that `scripts/test` compiles: it must be the same text.
@Suite struct ReadmeExampleTests {
    @Test(arguments: [
        "Examples/MyDaemon/Sources/mydaemon/MyDaemon.swift",
        "Examples/MyDaemon/Sources/mydaemon-lifecycle/LifecycleOnly.swift",
    ])
    func theReadmeShowsTheCompiledExample(_ path: String) throws {
        let readme = try String(contentsOf: ExampleBinary.root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: ExampleBinary.root.appendingPathComponent(path), encoding: .utf8)
        #expect(readme.contains("```swift\n" + source + "```\n"), "README.md must show \(path) verbatim")
    }
}
