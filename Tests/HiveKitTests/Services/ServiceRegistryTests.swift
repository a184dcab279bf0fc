import HiveKit
import Synchronization
import TestSupport
import Testing

protocol Greeter: Sendable { func greet(_ name: String) -> String }
struct English: Greeter { func greet(_ name: String) -> String { "Hello, \(name)" } }
struct French: Greeter { func greet(_ name: String) -> String { "Bonjour, \(name)" } }
protocol Identity: Sendable, AnyObject {}
final class Token: Identity {}
/// `@unchecked Sendable` is safe: no stored properties (a non-final class cannot be
/// checked).
class Vehicle: @unchecked Sendable {}
/// `@unchecked Sendable` is safe: its only stored property is a `let` of a `Sendable` type.
final class Truck: Vehicle, @unchecked Sendable {
    let axles = [1, 2, 3]
}

@Suite struct ServiceRegistryTests {
    @Test func resolvesTheProtocolTypeWithoutCasts() throws {
        let services = Hive().services
        try services.register(Greeter.self) { English() }
        let greeter: any Greeter = try services.resolve(Greeter.self)
        #expect(greeter.greet("Ada") == "Hello, Ada")
        #expect(services.isAvailable(Greeter.self))
        #expect(services.registeredServices == ["Greeter"])
    }

    @Test func namedVariantsAreSeparateRegistrations() throws {
        let services = Hive().services
        try services.register(Greeter.self) { English() }
        try services.register(Greeter.self, name: "fr") { French() }
        #expect(try services.resolve(Greeter.self, name: "fr").greet("Ada") == "Bonjour, Ada")
        #expect(try services.resolve(Greeter.self).greet("Ada") == "Hello, Ada")
        #expect(!services.isAvailable(Greeter.self, name: "de"))
        let error = #expect(throws: HiveError.self) { try services.resolve(Greeter.self, name: "de") }
        #expect(error?.code == .notRegistered)
        #expect(error?.message.contains("Greeter named 'de'") == true)
    }

    @Test func resolvingWhatIsNotRegisteredIsATypedError() {
        let error = #expect(throws: HiveError.self) { try Hive().services.resolve(Greeter.self) }
        #expect(error?.code == .notRegistered)
        #expect(error?.message == "no service 'Greeter' is registered")
    }

    @Test func registeringTwiceFailsUnlessReplacing() throws {
        let services = Hive().services
        try services.register(Greeter.self) { English() }
        let error = #expect(throws: HiveError.self) { try services.register(Greeter.self) { French() } }
        #expect(error?.code == .duplicateRegistration)
        #expect(try services.resolve(Greeter.self).greet("x") == "Hello, x")
        try services.register(Greeter.self, replacing: true) { French() }
        #expect(try services.resolve(Greeter.self).greet("x") == "Bonjour, x")
        #expect(services.unregister(Greeter.self))
        #expect(!services.isAvailable(Greeter.self))
        #expect(!services.unregister(Greeter.self))
    }

    @Test func singletonIsCreatedLazilyOnceAndTransientEveryTime() throws {
        let services = Hive().services
        let made = Counter()
        try services.register(Identity.self) { made.next(); return Token() }
        try services.register(Identity.self, name: "fresh", lifetime: .transient) { made.next(); return Token() }
        #expect(made.value.load(ordering: .relaxed) == 0)
        let first = try services.resolve(Identity.self)
        #expect(first === (try services.resolve(Identity.self)))
        #expect(made.value.load(ordering: .relaxed) == 1)
        let fresh = try services.resolve(Identity.self, name: "fresh")
        #expect(fresh !== (try services.resolve(Identity.self, name: "fresh")))
        #expect(made.value.load(ordering: .relaxed) == 3)
    }

    @Test func concurrentResolutionCreatesExactlyOneInstance() async throws {
        let services = Hive().services
        let made = Counter()
        try services.register(Identity.self) {
            made.next()
            var spin = 0
            for index in 0..<200_000 { spin &+= index }  // widen the race window
            _ = spin
            return Token()
        }
        let ids = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<500 { group.addTask { ObjectIdentifier(try services.resolve(Identity.self)) } }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(made.value.load(ordering: .relaxed) == 1)
        #expect(ids.count == 1)
    }

    @Test func factoryErrorsAndCyclesAreErrorsNotCrashes() throws {
        struct Broken: Error {}
        let services = Hive().services
        try services.register(Greeter.self) { throw Broken() }
        let failed = #expect(throws: HiveError.self) { try services.resolve(Greeter.self) }
        #expect(failed?.code == .handlerFailed)
        #expect(failed?.underlying is Broken)
        try services.register(Identity.self) { try services.resolve(Identity.self) }
        let cycle = #expect(throws: HiveError.self) { try services.resolve(Identity.self) }
        #expect(cycle?.code == .circularDependency)
    }

    @Test func factoriesMayResolveOtherServices() throws {
        struct Polite: Greeter {
            let inner: any Greeter
            func greet(_ name: String) -> String { inner.greet(name) + "!" }
        }
        let services = Hive().services
        try services.register(Greeter.self, name: "base") { English() }
        try services.register(Greeter.self) { Polite(inner: try services.resolve(Greeter.self, name: "base")) }
        #expect(try services.resolve(Greeter.self).greet("Ada") == "Hello, Ada!")
    }

    @Test func registrationsAreKeyedByTheStaticServiceTypeNotTheMetatypesDynamicType() throws {
        let services = Hive().services
        let vehicle: Vehicle.Type = Truck.self
        try services.register(vehicle) { Vehicle() }
        #expect(services.registeredServices == ["Vehicle"])
        #expect(services.isAvailable(vehicle))
        #expect(services.isAvailable(Vehicle.self))
        #expect(!services.isAvailable(Truck.self))
        let error = #expect(throws: HiveError.self) { try services.resolve(Truck.self) }
        #expect(error?.code == .notRegistered)
        #expect(!(try services.resolve(vehicle) is Truck))
        #expect(services.unregister(vehicle))
        #expect(!services.isAvailable(Vehicle.self))

        var catalog = ServiceCatalog()
        catalog.register(vehicle, implementation: "Plain") { Vehicle() }
        #expect(catalog.serviceNames == ["Vehicle"])
        try services.register(ServiceSpec(service: "Vehicle", implementation: "Plain"), catalog: catalog)
        #expect(services.isAvailable(Vehicle.self))
        #expect(!services.isAvailable(Truck.self))
    }
}
