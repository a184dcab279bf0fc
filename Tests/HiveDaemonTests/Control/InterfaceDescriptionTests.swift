import Foundation
@testable import HiveDaemon
import Testing

@Suite struct InterfaceDescriptionTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    @Test func theReadmeQuotesTheInterfaceDescriptionVerbatim() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
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
