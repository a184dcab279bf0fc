@testable import HiveDaemon
import HiveKit
import TestSupport
import Testing

/// A document holds at most 250,000 nodes, aliases counted in full: a hostile file of a
/// million tiny maps is refused once past the bound, at the line where it passes it.
// CPU-bound and synchronous (in BlockingTests' process, away from the timing-sensitive
// tests): one test at a time, so the suite holds at most one of the pool's threads.
@Suite(.serialized, .runsIn(.blocking)) struct NodeBoundTests {
    /// `x: [a, a, …]` of `nodes` nodes in all (the map, its key, the list, the items).
    static func list(nodes: Int) -> String {
        "x: [" + repeatElement("a", count: nodes - 3).joined(separator: ",") + "]\n"
    }

    @Test func aDocumentOfTheBoundIsReadOneMoreIsRefused() throws {
        let bound = YAMLReader.maximumNodes
        #expect(bound == 250_000)
        #expect(MemoryLayout<YAMLNode>.stride == 32, "as YAMLNode's documentation says")
        let read = try YAMLReader.read(Self.list(nodes: bound), file: "f.yaml")
        #expect(read?.size == bound)
        let error = #expect(throws: HiveError.self) { try YAMLReader.read(Self.list(nodes: bound + 1), file: "f.yaml") }
        #expect(error?.description == "f.yaml:1: the configuration holds more than 250,000 nodes (keys, values, lists and maps, aliases counted in full)")
    }

    @Test func aliasesCountInFull() {
        // 1,000 maps of one key (3,001 nodes with their list), aliased 30 times (90,030 more,
        // within the bound on what aliases add), then 157,000 plain items: 250,000 passed
        // only if each alias counts as the 3,001 nodes it stands for.
        let base = "base: &b [" + repeatElement("{a: 1}", count: 1_000).joined(separator: ",") + "]\n"
        let aliases = "many: [" + repeatElement("*b", count: 30).joined(separator: ",") + "]\n"
        let more = "more: [" + repeatElement("a", count: 157_000).joined(separator: ",") + "]\n"
        let error = #expect(throws: HiveError.self) { try YAMLReader.read(base + aliases + more, file: "f.yaml") }
        #expect(error?.description.hasPrefix("f.yaml:3: the configuration holds more than 250,000 nodes") == true, "\(error?.description ?? "")")
    }
}
