import HiveKit
import TestSupport
import Testing

// The code of HiveKit.docc/Actions.md, compiled and run: every block of the article is
// this file's text (DocumentationCodeTests checks that).

/// Entries by region, for the actions below.
actor ActionCache {
    private var entries = ["eu": 3, "us": 2]
    var count: Int { entries.values.reduce(0, +) }
    /// Drops a region's entries; returns how many went.
    func flush(region: String) -> Int { entries.removeValue(forKey: region) ?? 0 }
}

/// A target type (CTMediator's `Target_Cells`): its actions, answered in `perform`.
struct Cells: ActionTarget {
    static let actionNames = ["cell"]
    func perform(_ request: ActionRequest) async throws -> any Sendable { "a cell for \(request.action)" }
}

/// The module `cache`: the article's registrations, in its `setup`.
struct ActionsModule: Module {
    let cache = ActionCache()

    func setup(_ context: ModuleContext) async throws {
        let cache = self.cache
        // in the "cache" module's setup: the target is the module's own name
        try context.mediator.register("flush") { request in
            await cache.flush(region: try request.parameter("region", as: String.self))
        }
        try context.mediator.register("size", acceptsURLs: true) { _ in await cache.count }
        try context.mediator.setNotFoundAction { request in "cache has no \(request.action)" }
        try context.mediator.register("count", exported: true) { _ in await cache.count }  // callable from outside
        try context.mediator.register(target: "Cells") { Cells() }   // an ActionTarget type: target "cache.Cells"
    }
}

@Suite struct ActionsArticleTests {
    @Test func theArticlesCallsAnswerAsItsCommentsSay() async throws {
        let hive = try makeHive([(ActionsModule(), ModuleDescriptor(name: "cache"))])
        try await hive.start()

        // anywhere
        try await hive.mediator.perform(target: "cache", action: "flush", params: ["region": "eu"])
        let size = try await hive.mediator.perform(target: "cache", action: "size", as: Int.self)
        let same = try await hive.mediator.perform(url: "hive://cache/size", as: Int.self)
        hive.mediator.setNotFoundHandler { request in "no \(request.target).\(request.action)" }
        try await hive.mediator.perform(target: "cache.Cells", action: "cell", cachesTarget: true)  // kept for later calls
        hive.mediator.releaseCachedTarget("cache.Cells")
        let definitions = hive.mediator.definitions   // [ActionDefinition]: target, name, acceptsURLs, owner, exported

        #expect(size == 2 && same == 2)
        #expect(try await hive.mediator.perform(target: "cache", action: "nothing", as: String.self) == "cache has no nothing")
        #expect(try await hive.mediator.perform(target: "shop", action: "buy", as: String.self) == "no shop.buy")
        #expect(definitions.map { "\($0.target).\($0.name)\($0.acceptsURLs ? " urls" : "")\($0.exported ? " exported" : "")" } == [
            "cache.count exported", "cache.flush", "cache.size urls", "cache.Cells.cell",
        ])
        await #expect(throws: HiveError.self) { try await hive.mediator.perform(url: "hive://cache/flush?region=us") }
        await hive.stop()
    }
}
