import HiveKit
import Synchronization
import Testing

/// BeeHive's example service (`HomeServiceProtocol`, implemented by `BHViewController`).
protocol HomeServiceProtocol: Sendable {
    var id: Int { get }
}

final class BHViewController: HomeServiceProtocol, ServiceReleasing {
    let id: Int
    let released = Mutex(false)
    init(id: Int) { self.id = id }
    func release() { released.withLock { $0 = true } }
}

/// BeeHive's per-call caching choice (`createService:withServiceName:shouldCache:`) and its
/// access to cached instances (`getServiceInstanceFromServiceName:`,
/// `removeServiceWithServiceName:`).
@Suite struct ServiceCachingTests {
    /// Counts the instances a factory made.
    final class Made: Sendable {
        let count = Mutex(0)
        func next() -> Int { count.withLock { $0 += 1; return $0 } }
    }

    func registry() throws -> (ServiceRegistry, Made) {
        let services = Hive().services
        let made = Made()
        try services.register(HomeServiceProtocol.self) { BHViewController(id: made.next()) }
        return (services, made)
    }

    @Test func shouldCacheNoMakesANewInstanceAndKeepsNothing() throws {
        let (services, _) = try registry()
        #expect(services.cachedInstance(HomeServiceProtocol.self) == nil, "nothing created yet")
        #expect(try services.resolve(HomeServiceProtocol.self, cached: false).id == 1)
        #expect(services.cachedInstance(HomeServiceProtocol.self) == nil, "and nothing kept")
        #expect(try services.resolve(HomeServiceProtocol.self).id == 2)
        #expect(try services.resolve(HomeServiceProtocol.self, cached: false).id == 3)
        #expect(try services.resolve(HomeServiceProtocol.self).id == 2, "the singleton stays")
    }

    @Test func theCachedInstanceIsReadWithoutCreatingIt() throws {
        let (services, made) = try registry()
        #expect(services.cachedInstance(HomeServiceProtocol.self) == nil)
        #expect(made.count.withLock { $0 } == 0)
        let home = try services.resolve(HomeServiceProtocol.self)
        #expect(services.cachedInstance(HomeServiceProtocol.self)?.id == home.id)
        #expect(services.cachedInstance(HomeServiceProtocol.self, name: "other") == nil)
        try services.register(HomeServiceProtocol.self, name: "fresh", lifetime: .transient) { BHViewController(id: 0) }
        _ = try services.resolve(HomeServiceProtocol.self, name: "fresh")
        #expect(services.cachedInstance(HomeServiceProtocol.self, name: "fresh") == nil, "a transient keeps none")
    }

    @Test func removingTheCachedInstanceKeepsTheRegistration() throws {
        let (services, _) = try registry()
        #expect(!services.releaseInstance(HomeServiceProtocol.self), "none created")
        let first = try #require(try services.resolve(HomeServiceProtocol.self) as? BHViewController)
        #expect(services.releaseInstance(HomeServiceProtocol.self))
        #expect(first.released.withLock { $0 })
        #expect(services.cachedInstance(HomeServiceProtocol.self) == nil)
        #expect(services.isAvailable(HomeServiceProtocol.self))
        #expect(try services.resolve(HomeServiceProtocol.self).id == 2)
        #expect(!services.releaseInstance(HomeServiceProtocol.self, name: "nothing"))
    }

    @Test func anUncachedResolveOfItsOwnServiceIsACycle() throws {
        let services = Hive().services
        try services.register(HomeServiceProtocol.self) {
            _ = try services.resolve(HomeServiceProtocol.self, cached: false)
            return BHViewController(id: 0)
        }
        let error = #expect(throws: HiveError.self) { try services.resolve(HomeServiceProtocol.self, cached: false) }
        #expect(error?.code == .circularDependency)
    }
}
