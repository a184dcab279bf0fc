import Foundation
import HiveKit
import Synchronization
import Testing

/// A singleton factory that stops halfway until told to go on.
final class HeldFactory: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let proceed = DispatchSemaphore(value: 0)
    let name: String
    let journal: Journal

    init(_ name: String, _ journal: Journal) {
        self.name = name
        self.journal = journal
    }

    /// The factory: signals that it runs, then waits for ``finish()``.
    func make() -> Handle {
        entered.signal()
        proceed.wait()
        return Handle(name, journal)
    }

    /// Returns once the factory runs.
    func waitUntilRunning() { entered.wait() }

    /// Lets the factory return.
    func finish() { proceed.signal() }
}

/// Whatever is created for a registration that goes away meanwhile is released: removals
/// wait for a singleton being created.
/// Serialized: a removal waiting for a held factory blocks a thread of the cooperative
/// pool, and two at once would leave none to let the factories go on.
@Suite(.serialized) struct ServiceRemovalTests {
    /// Resolves `Resource` on a new thread while `factory` holds its creation, runs
    /// `remove` on another thread, and checks that it waits for the factory; returns once
    /// both are done.
    private func removeWhileCreating(
        _ services: ServiceRegistry, _ factory: HeldFactory, remove: @escaping @Sendable () -> Void
    ) async throws {
        let resolver = startThread { _ = try? services.resolve(Resource.self) }
        await offPool { factory.waitUntilRunning() }
        let removed = Atomic<Bool>(false)
        let remover = startThread {
            remove()
            removed.store(true, ordering: .releasing)
        }
        try await Task.sleep(for: .milliseconds(100))
        let removedEarly = removed.load(ordering: .acquiring)
        #expect(!removedEarly, "removal waits for the factory")
        factory.finish()
        #expect(await offPool { resolver.wait(timeout: .now() + 10) } == .success)
        #expect(await offPool { remover.wait(timeout: .now() + 10) } == .success)
    }

    @Test func aSingletonBeingCreatedWhenItIsUnregisteredIsReleased() async throws {
        let journal = Journal()
        let factory = HeldFactory("held", journal)
        let services = Hive().services
        try services.register(Resource.self) { factory.make() }
        try await removeWhileCreating(services, factory) { services.unregister(Resource.self) }
        #expect(journal.entries == ["release held"])
        #expect(!services.isAvailable(Resource.self))
    }

    @Test func aSingletonBeingCreatedWhenItsModuleIsUnregisteredIsReleased() async throws {
        struct Slow: Module {
            let factory: HeldFactory
            func setup(_ context: ModuleContext) async throws {
                let factory = factory
                try context.services.register(Resource.self) { factory.make() }
            }
        }
        let journal = Journal()
        let factory = HeldFactory("slow", journal)
        let hive = try Hive(modules: [ModuleRegistration(name: "slow", module: Slow(factory: factory))])
        try await hive.start()
        let resolver = startThread { _ = try? hive.services.resolve(Resource.self) }
        await offPool { factory.waitUntilRunning() }
        let unregistering = Task { try await hive.unregister(named: "slow") }
        try await Task.sleep(for: .milliseconds(100))
        factory.finish()
        try await unregistering.value
        #expect(await offPool { resolver.wait(timeout: .now() + 10) } == .success)
        #expect(journal.entries == ["release slow"])
        #expect(!hive.services.isAvailable(Resource.self))
        await hive.stop()
    }

    @Test func aSingletonBeingCreatedWhenItIsReplacedIsReleased() async throws {
        let journal = Journal()
        let factory = HeldFactory("old", journal)
        let services = Hive().services
        try services.register(Resource.self) { factory.make() }
        try await removeWhileCreating(services, factory) {
            try? services.register(Resource.self, replacing: true) { Handle("new", journal) }
        }
        #expect(journal.entries == ["release old"])
        #expect((try services.resolve(Resource.self) as? Handle)?.name == "new")
    }

    @Test func aSingletonBeingCreatedWhenTheHiveStopsIsReleased() async throws {
        let journal = Journal()
        let factory = HeldFactory("held", journal)
        let hive = Hive()
        try hive.services.register(Resource.self) { factory.make() }
        try await hive.start()
        let resolver = startThread { _ = try? hive.services.resolve(Resource.self) }
        await offPool { factory.waitUntilRunning() }
        let stopping = Task { await hive.stop() }
        try await Task.sleep(for: .milliseconds(100))
        factory.finish()
        _ = await stopping.value
        #expect(await offPool { resolver.wait(timeout: .now() + 10) } == .success)
        #expect(journal.entries == ["release held"])
    }

    @Test func aSingletonWhoseFactoryUnregistersItIsReleasedAndNotHandedOut() async throws {
        let journal = Journal()
        let services = Hive().services
        try services.register(Resource.self) {
            services.unregister(Resource.self)
            return Handle("orphan", journal)
        }
        let error = #expect(throws: HiveError.self) { try services.resolve(Resource.self) }
        #expect(error?.code == .notRegistered)
        #expect(journal.entries == ["release orphan"])
    }
}
