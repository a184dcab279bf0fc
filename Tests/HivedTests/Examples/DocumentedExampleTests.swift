import Foundation
import Testing

/// The documentation shows whole files of the examples that `scripts/test` compiles: each
/// must be the file's text, in the document that says it shows it.
@Suite struct DocumentedExampleTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: ExampleBinary.root.appendingPathComponent(path), encoding: .utf8)
    }

    static let daemon = "Sources/HiveDaemon/HiveDaemon.docc"

    @Test(arguments: [
        ("README.md", "Examples/MyDaemon/Sources/hello/Hello.swift"),
        ("\(daemon)/HiveDaemon.md", "Examples/MyDaemon/Sources/mydaemon/MyDaemon.swift"),
        ("\(daemon)/WritingYourOwnDaemon.md", "Examples/MyDaemon/Sources/mydaemon/MyDaemon.swift"),
        ("\(daemon)/WritingYourOwnDaemon.md", "Examples/MyDaemon/Sources/MyDaemonModules/KeyValueStore.swift"),
        ("\(daemon)/WritingYourOwnDaemon.md", "Examples/MyDaemon/Sources/MyDaemonModules/StoreModule.swift"),
        ("\(daemon)/WritingYourOwnDaemon.md", "Examples/MyDaemon/Sources/MyDaemonModules/ReportModule.swift"),
        ("\(daemon)/WritingYourOwnDaemon.md", "Examples/MyDaemon/Sources/mydaemon-main/main.swift"),
        ("Sources/HiveDaemonService/HiveDaemonService.docc/RunningInAServiceGroup.md",
         "Examples/MyDaemon/Sources/mydaemon-group/MyDaemonInAGroup.swift"),
        ("Sources/HiveDaemonService/HiveDaemonService.docc/ServiceLifecycleOrHiveKit.md",
         "Examples/MyDaemon/Sources/mydaemon-lifecycle/LifecycleOnly.swift"),
        ("Sources/HiveServiceLifecycle/HiveServiceLifecycle.docc/HostingAServiceAsAModule.md",
         "Examples/MyDaemon/Sources/mydaemon-group/Ticker.swift"),
    ])
    func theDocumentShowsTheCompiledFile(_ document: String, _ path: String) throws {
        let source = try Self.text(path)
        #expect(try Self.text(document).contains("```swift\n" + source + "```\n"), "\(document) must show \(path) whole")
    }

    /// The `main` of a `DaemonProgram` that bootstraps its own logging: "Writing your own
    /// daemon" shows the compiled `static func main()`, out of its type.
    @Test func theArticleShowsTheCompiledMainThatBootstrapsItsLogging() throws {
        let path = "Examples/MyDaemon/Sources/mydaemon-logging/MyDaemon.swift"
        let lines = try Self.text(path).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "    static func main() {"), "\(path) has a main of its own")
        let end = try #require(lines[start...].firstIndex(of: "    }"))
        let main = lines[start...end].map { $0.dropFirst(4) }.joined(separator: "\n")
        #expect(main.contains("LoggingSystem.bootstrap(") && main.contains("DaemonCommand<Self>.main()"), "\(main)")
        let article = "\(Self.daemon)/WritingYourOwnDaemon.md"
        #expect(try Self.text(article).contains("```swift\n" + main + "\n```\n"), "\(article) must show \(path)'s main")
    }
}
