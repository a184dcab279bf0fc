import HiveKit
import Synchronization
import TestSupport
import Testing

/// A module that logs its teardown and registers one releasing singleton in setup.
struct Owner: Module {
    let name: String
    let journal: Journal
    func setup(_ context: ModuleContext) async throws {
        let (name, journal) = (name, journal)
        try context.services.register(Resource.self, name: name) { Handle(name, journal) }
    }
    func teardown(_ context: ModuleContext) async throws { journal.add("teardown \(name)") }
}

@Suite struct ServiceLifecycleTests {
    @Test func singletonsAreReleasedAfterEveryTeardownInReverseOrderOfCreation() async throws {
        let journal = Journal()
        let hive = try makeHive([
            (Owner(name: "a", journal: journal), ModuleDescriptor(name: "a")),
            (Owner(name: "b", journal: journal), ModuleDescriptor(name: "b")),
            (Owner(name: "c", journal: journal), ModuleDescriptor(name: "c")),
        ])
        try hive.services.register(Resource.self, name: "never") { Handle("never", journal) }
        try await hive.start()
        // Creation order b, c, a: not the module order.
        for name in ["b", "c", "a"] { _ = try hive.services.resolve(Resource.self, name: name) }
        await hive.stop()
        #expect(journal.entries == [
            "teardown c", "teardown b", "teardown a", "release a", "release c", "release b",
        ])
    }

    @Test func rollbackOfAFailedStartReleasesSingletons() async throws {
        struct Failing: Module {
            func initialize(_ context: ModuleContext) async throws {
                _ = try context.services.resolve(Resource.self, name: "a")
                throw HiveError(.invalidSettings, "no")
            }
        }
        let journal = Journal()
        let hive = try makeHive([
            (Owner(name: "a", journal: journal), ModuleDescriptor(name: "a")),
            (Failing(), ModuleDescriptor(name: "failing")),
        ])
        await #expect(throws: HiveError.self) { try await hive.start() }
        #expect(journal.entries.last == "release a")
        #expect(journal.entries.contains("teardown a"))
    }

    @Test func unregisteringAModuleRemovesAndReleasesItsServices() async throws {
        let journal = Journal()
        let hive = Hive()
        try await hive.register(Owner(name: "a", journal: journal), as: ModuleDescriptor(name: "a"))
        try await hive.register(Owner(name: "b", journal: journal), as: ModuleDescriptor(name: "b"))
        try await hive.start()
        _ = try hive.services.resolve(Resource.self, name: "a")
        try await hive.unregister(named: "a")
        #expect(journal.entries == ["teardown a", "release a"])
        #expect(!hive.services.isAvailable(Resource.self, name: "a"))
        #expect(hive.services.isAvailable(Resource.self, name: "b"))
        await hive.stop()
    }

    @Test func singletonsWithoutReleaseAreDroppedAfterTeardown() async throws {
        final class Plain: Resource {}
        let hive = Hive()
        try hive.services.register(Resource.self) { Plain() }
        try await hive.start()
        weak let created = try hive.services.resolve(Resource.self) as? Plain
        #expect(created != nil)
        await hive.stop()
        #expect(created == nil)
    }

    @Test func replacingAServiceReleasesTheOldSingleton() throws {
        let journal = Journal()
        let services = Hive().services
        try services.register(Resource.self) { Handle("old", journal) }
        _ = try services.resolve(Resource.self)
        try services.register(Resource.self, replacing: true) { Handle("new", journal) }
        #expect(journal.entries == ["release old"])
        #expect((try services.resolve(Resource.self) as? Handle)?.name == "new")
    }

    @Test func afterTheHiveStoppedResolvesAndRegistrationsAreRefused() async throws {
        let journal = Journal()
        let made = Counter()
        let hive = try makeHive([(Owner(name: "a", journal: journal), ModuleDescriptor(name: "a"))])
        try hive.services.register(Identity.self) { made.next(); return Token() }
        try await hive.start()
        _ = try hive.services.resolve(Identity.self)
        _ = try hive.services.resolve(Resource.self, name: "a")
        await hive.stop()
        #expect(journal.entries == ["teardown a", "release a"])

        let resolve = #expect(throws: HiveError.self) { try hive.services.resolve(Resource.self, name: "a") }
        #expect(resolve?.code == .refusedEvent)
        #expect(resolve?.message == "the hive has stopped: cannot resolve service 'Resource named 'a''")
        #expect(throws: HiveError.self) { try hive.services.resolve(Identity.self) }
        #expect(made.value.load(ordering: .relaxed) == 1)
        #expect(!hive.services.isAvailable(Identity.self))
        #expect(hive.services.registeredServices.isEmpty)
        let register = #expect(throws: HiveError.self) { try hive.services.register(Greeter.self) { English() } }
        #expect(register?.code == .refusedEvent)
        #expect(register?.message == "the hive has stopped: cannot register service 'Greeter'")
        #expect(journal.entries == ["teardown a", "release a"])
    }

    @Test func afterTheRollbackOfAFailedStartResolvesAreRefused() async throws {
        let journal = Journal()
        let hive = try makeHive([
            (Owner(name: "a", journal: journal), ModuleDescriptor(name: "a")),
            (ScriptedModule(Recorder(), [.`init`: .fail("no")]), ModuleDescriptor(name: "failing")),
        ])
        await #expect(throws: HiveError.self) { try await hive.start() }
        let error = #expect(throws: HiveError.self) { try hive.services.resolve(Resource.self, name: "a") }
        #expect(error?.code == .refusedEvent)
        #expect(!journal.entries.contains("release a"))  // never created, so nothing to release
    }
}
