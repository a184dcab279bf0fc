@testable import HiveKit
import TestSupport
import Testing

/// A reload that removes most modules gives their room back (issue 27): the hive's order
/// and index never shrank on their own, so a file of 34,000 modules left hived 4 MiB
/// bigger for good. A reload that removes a few copies nothing.
@Suite struct ReloadRoomTests {
    struct Plain: Module {}

    static func specs(_ count: Int) -> [ModuleDescriptor] {
        (0..<count).map { ModuleDescriptor(name: "m\($0)", type: "plain") }
    }

    @Test func aReloadThatRemovesMostModulesGivesTheirRoomBack() async throws {
        var catalog = ModuleCatalog()
        catalog.register("plain") { _ in Plain() }
        let hive = try makeHive([])
        try await hive.start()
        #expect(try await hive.reload(to: Self.specs(3_000), catalog: catalog).isApplied)
        let grown = hive.state.withLock { (order: $0.modules.capacity, index: $0.places.capacity) }
        #expect(grown.order >= 3_000 && grown.index >= 3_000)

        #expect(try await hive.reload(to: Self.specs(2_990), catalog: catalog).isApplied)
        let few = hive.state.withLock { (order: $0.modules.capacity, index: $0.places.capacity) }
        #expect(few.index == grown.index, "removing 10 of 3,000 does not rebuild the index")

        #expect(try await hive.reload(to: Self.specs(10), catalog: catalog).isApplied)
        let room = hive.state.withLock { (order: $0.modules.capacity, index: $0.places.capacity) }
        #expect(room.order <= 64 && room.index <= 64, "room for 10 modules, not 3,000: \(room)")
        #expect(hive.moduleNames == (0..<10).map { "m\($0)" })
        await hive.stop()
    }
}
