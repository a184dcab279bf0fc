import HiveKit
import Synchronization
import TestSupport
import Testing

/// CTMediator's demo target `Target_A`, in a Swift module: its actions, and a cell it
/// dequeues that is worth keeping between calls.
final class TargetA: ActionTarget {
    static let actionNames = ["nativeFetchDetailViewController", "cell", "configCell"]
    /// The cell identifiers dequeued by this instance.
    private let dequeued = Mutex<[String]>([])

    func perform(_ request: ActionRequest) async throws -> any Sendable {
        switch request.action {
        case "nativeFetchDetailViewController":
            return "detail: \(try request.parameter("key", as: String.self))"
        case "cell":
            let identifier = try request.parameter("identifier", as: String.self)
            return dequeued.withLock { cells in
                cells.append(identifier)
                return cells.count
            }
        default:
            let title = try request.parameter("title", as: String.self)
            return "\(title),\(try request.parameter("indexPath", as: Int.self)) of \(dequeued.withLock { $0.count })"
        }
    }
}

/// CTMediator's target cache (`shouldCacheTarget:`, `releaseCachedTargetWithFullTargetName:`)
/// and Swift targets named with their module (`kCTMediatorParamsKeySwiftTargetModuleName`),
/// with its demo's values.
@Suite struct ActionTargetTests {
    final class Counter: Sendable {
        let made = Mutex(0)
        var count: Int { made.withLock { $0 } }
    }

    func startedHive(_ counter: Counter) async throws -> Hive {
        struct Offering: Module {
            let counter: Counter
            func setup(_ context: ModuleContext) async throws {
                try context.mediator.register(target: "A") { [counter] in
                    counter.made.withLock { $0 += 1 }
                    return TargetA()
                }
            }
        }
        let hive = try makeHive([(Offering(counter: counter), ModuleDescriptor(name: "ModuleA"))])
        try await hive.start()
        return hive
    }

    @Test func aTargetIsMadePerCallUnlessTheCallerCachesIt() async throws {
        let counter = Counter()
        let hive = try await startedHive(counter)
        let mediator = hive.mediator
        // CTMediator_viewControllerForDetail: shouldCacheTarget:NO.
        #expect(try await mediator.perform(
            target: "ModuleA.A", action: "nativeFetchDetailViewController", params: ["key": "value"], as: String.self)
            == "detail: value")
        try await mediator.perform(target: "ModuleA.A", action: "nativeFetchDetailViewController", params: ["key": "value"])
        #expect(counter.count == 2)
        // CTMediator_tableViewCellWithIdentifier / configTableViewCell: shouldCacheTarget:YES.
        #expect(try await mediator.perform(
            target: "ModuleA.A", action: "cell", params: ["identifier": "cell"], cachesTarget: true, as: Int.self) == 1)
        #expect(try await mediator.perform(
            target: "ModuleA.A", action: "cell", params: ["identifier": "cell"], cachesTarget: true, as: Int.self) == 2)
        #expect(try await mediator.perform(
            target: "ModuleA.A", action: "configCell", params: ["title": "cell title", "indexPath": 0], as: String.self)
            == "cell title,0 of 2", "a kept target answers every call, caching or not")
        #expect(counter.count == 3)
        // CTMediator_cleanTableViewCellTarget.
        #expect(mediator.releaseCachedTarget("ModuleA.A"))
        #expect(!mediator.releaseCachedTarget("ModuleA.A"))
        #expect(try await mediator.perform(
            target: "ModuleA.A", action: "cell", params: ["identifier": "cell"], as: Int.self) == 1)
        #expect(counter.count == 4)
        await hive.stop()
    }

    @Test func aTargetIsNamedWithItsModuleListedAndProfiled() async throws {
        let counter = Counter()
        let hive = try await startedHive(counter)
        #expect(hive.mediator.definitions == TargetA.actionNames.sorted().map {
            ActionDefinition(target: "ModuleA.A", name: $0, acceptsURLs: false, owner: "ModuleA")
        })
        #expect(hive.mediator.canPerform(target: "ModuleA.A", action: "cell"))
        let missing = await #expect(throws: HiveError.self) { try await hive.mediator.perform(target: "A", action: "cell") }
        #expect(missing?.code == .notFound)
        try await hive.mediator.perform(target: "ModuleA.A", action: "cell", params: ["identifier": "x"])
        #expect(hive.profile.modules.first?.calls["action A.cell"]?.calls == 1)
        await hive.stop()
    }

    @Test func aTargetsActionIsExportedByItsQualifiedName() async throws {
        struct Offering: Module {
            func setup(_ context: ModuleContext) async throws {
                try context.mediator.register("cell") { _ in "the module's own" }
                try context.mediator.register(target: "A") { TargetA() }
            }
        }
        let descriptor = ModuleDescriptor(name: "ModuleA", exportedActions: ["A.cell"])
        let hive = try makeHive([(Offering(), descriptor)])
        try await hive.start()
        let exported = hive.mediator.definitions.filter(\.exported).map { "\($0.target).\($0.name)" }
        #expect(exported == ["ModuleA.A.cell"])
        #expect(try await hive.performFromOutside(target: "ModuleA.A", action: "cell", parameters: ["identifier": "x"]) as? Int == 1)
        await #expect(throws: OutsideCall.Refusal.self) {
            try await hive.performFromOutside(target: "ModuleA", action: "cell", parameters: [:])
        }
        await hive.stop()
    }

    @Test func aModulesTargetsAndTheirKeptInstancesGoWithIt() async throws {
        let counter = Counter()
        let hive = try await startedHive(counter)
        try await hive.mediator.perform(target: "ModuleA.A", action: "cell", params: ["identifier": "x"], cachesTarget: true)
        try await hive.unregister(named: "ModuleA")
        #expect(hive.mediator.definitions.isEmpty)
        #expect(!hive.mediator.releaseCachedTarget("ModuleA.A"), "dropped with the module")
        await hive.stop()
    }

    @Test func aTargetNameIsTheModulesOwnAndTakenOnce() async throws {
        struct Twice: Module {
            func setup(_ context: ModuleContext) async throws {
                try context.mediator.register("cell") { _ in 0 }
                try context.mediator.register(target: "B") { TargetA() }
                let again = #expect(throws: HiveError.self) { try context.mediator.register(target: "B") { TargetA() } }
                #expect(again?.code == .duplicateRegistration)
                #expect(again?.message == "target 'm.B' is already registered")
                let malformed = #expect(throws: HiveError.self) { try context.mediator.register(target: "a/b") { TargetA() } }
                #expect(malformed?.code == .invalidParameter)
            }
        }
        let hive = try makeHive([(Twice(), ModuleDescriptor(name: "m"))])
        try await hive.start()
        #expect(hive.mediator.actions == ["m": ["cell"], "m.B": TargetA.actionNames.sorted()])
        let throughTheHive = #expect(throws: HiveError.self) { try hive.mediator.register(target: "C") { TargetA() } }
        #expect(throughTheHive?.code == .unknownModule)
        await hive.stop()
    }
}
