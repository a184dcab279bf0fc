import Foundation
import HiveKit
import Synchronization
import TestSupport
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

/// Whatever is created for a registration that goes away meanwhile is released; the
/// removal never waits for the factory (it runs on the hive's event path).
@Suite(.runsIn(.blocking)) struct ServiceRemovalTests {
    /// What a resolve on another thread ended with.
    final class Outcome: Sendable {
        let error = Mutex<HiveError.Code?>(nil)
        let done = DispatchGroup()
    }

    /// Resolves `Resource` on a new thread; returns once `factory` runs for it.
    private func resolveOnAThread(_ services: ServiceRegistry, _ factory: HeldFactory) async -> Outcome {
        let outcome = Outcome()
        outcome.done.enter()
        Thread.detachNewThread {
            do throws(HiveError) { _ = try services.resolve(Resource.self) } catch {
                outcome.error.withLock { $0 = error.code }
            }
            outcome.done.leave()
        }
        await offPool { factory.waitUntilRunning() }
        return outcome
    }

    /// Runs `remove` while `factory` is held, and checks that it returns without waiting for
    /// it and that the instance, once made, is released and not handed out.
    private func removeWhileCreating(
        _ services: ServiceRegistry, _ factory: HeldFactory, _ journal: Journal,
        expecting code: HiveError.Code = .notRegistered,
        remove: @escaping @Sendable () async -> Void
    ) async throws {
        let resolve = await resolveOnAThread(services, factory)
        await remove()  // would never return if it waited for the held factory
        #expect(journal.entries.isEmpty, "nothing was created yet")
        factory.finish()
        #expect(await offPool { resolve.done.wait(timeout: .now() + 10) } == .success)
        #expect(resolve.error.withLock { $0 } == code, "the late instance is not handed out")
        #expect(journal.entries.first?.hasPrefix("release ") == true, "its creator released it")
    }

    @Test func unregisteringDoesNotWaitForAFactoryAndItsLateSingletonIsReleased() async throws {
        let journal = Journal()
        let factory = HeldFactory("held", journal)
        let services = Hive().services
        try services.register(Resource.self) { factory.make() }
        try await removeWhileCreating(services, factory, journal) { services.unregister(Resource.self) }
        #expect(journal.entries == ["release held"])
        #expect(!services.isAvailable(Resource.self))
    }

    /// A slow factory run by a module's own task (outside any hook) must not hold up the
    /// event path: `unregister` runs `teardown` and `unmount` and returns.
    @Test func unregisteringAModuleDoesNotWaitForItsFactory() async throws {
        struct Slow: Module {
            let factory: HeldFactory
            func setup(_ context: ModuleContext) async throws {
                let factory = factory
                try context.services.register(Resource.self) { factory.make() }
            }
        }
        let journal = Journal()
        let factory = HeldFactory("slow", journal)
        let hive = try makeHive([(Slow(factory: factory), ModuleDescriptor(name: "slow"))])
        try await hive.start()
        try await removeWhileCreating(hive.services, factory, journal) { try? await hive.unregister(named: "slow") }
        #expect(hive.moduleNames.isEmpty)
        #expect(journal.entries == ["release slow"])
        #expect(!hive.services.isAvailable(Resource.self))
        await hive.stop()
    }

    @Test func replacingDoesNotWaitForAFactoryAndItsLateSingletonIsReleased() async throws {
        let journal = Journal()
        let factory = HeldFactory("old", journal)
        let services = Hive().services
        try services.register(Resource.self) { factory.make() }
        try await removeWhileCreating(services, factory, journal) {
            try? services.register(Resource.self, replacing: true) { Handle("new", journal) }
        }
        #expect(journal.entries == ["release old"])
        #expect((try services.resolve(Resource.self) as? Handle)?.name == "new")
    }

    @Test func stoppingDoesNotWaitForAFactoryAndItsLateSingletonIsReleased() async throws {
        let journal = Journal()
        let factory = HeldFactory("held", journal)
        let hive = Hive()
        try hive.services.register(Resource.self) { factory.make() }
        try await hive.start()
        try await removeWhileCreating(hive.services, factory, journal, expecting: .refusedEvent) {
            #expect(await hive.stop().isEmpty)
        }
        #expect(hive.phase == .stopped)
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
