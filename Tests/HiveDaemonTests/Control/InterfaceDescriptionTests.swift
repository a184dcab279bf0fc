import Foundation
@testable import HiveDaemon
import Testing

@Suite struct InterfaceDescriptionTests {
    /// The article that documents the control interface.
    static let article = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/HiveDaemon/HiveDaemon.docc/ControlInterface.md")

    @Test func theDocumentationQuotesTheInterfaceDescriptionVerbatim() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let block = try #require(text.firstRange(of: "```varlink\n").map { start in
            text[start.upperBound...].prefix { _ in true }
        })
        let end = try #require(block.range(of: "```"))
        #expect(String(block[..<end.lowerBound]) == DaemonInterface.description)
    }

    @Test func everyMethodTheServerAnswersIsDescribed() {
        for method in [
            "GetStatus", "GetProfile", "SendEvent", "Reload", "SetLogLevel", "ListRoutes", "ListActions",
            "ListServices", "Subscribe", "GetMetrics", "OpenURL", "PerformAction",
        ] {
            #expect(DaemonInterface.description.contains("method \(method)("), "\(method)")
        }
    }
}
