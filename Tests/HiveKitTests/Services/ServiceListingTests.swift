@testable import HiveKit
import TestSupport
import Testing

/// Listing services, and who decides between singleton and transient.
@Suite struct ServiceListingTests {
    /// Counts the instances it hands out.
    final class Ticket: Greeter {
        func greet(_ name: String) -> String { "ticket for \(name)" }
    }

    @Test func definitionsListEveryRegistrationWithItsOwner() async throws {
        struct Offering: Module {
            func setup(_ context: ModuleContext) async throws {
                try context.services.register(Greeter.self, name: "fr", lifetime: .transient) { French() }
            }
        }
        let hive = try makeHive([(Offering(), ModuleDescriptor(name: "offering"))])
        var catalog = ServiceCatalog()
        catalog.register(Greeter.self, implementation: "English") { English() }
        try hive.services.register(ServiceSpec(service: "Greeter", implementation: "English"), catalog: catalog)
        try await hive.start()
        #expect(hive.services.definitions == [
            ServiceDefinition(service: "Greeter", name: nil, lifetime: .singleton, implementation: "English", owner: nil),
            ServiceDefinition(service: "Greeter", name: "fr", lifetime: .transient, implementation: nil, owner: "offering"),
        ])
        await hive.stop()
    }

    @Test func anImplementationMayDeclareItselfTransient() throws {
        // BeeHive's createService: makes a new instance unless +singleton says YES;
        // HiveKit's catalog entry says which, and a configuration entry may override it.
        var catalog = ServiceCatalog()
        catalog.register(Greeter.self, implementation: "Ticket", lifetime: .transient) { Ticket() }
        let services = Hive().services
        try services.register(
            [ServiceSpec(service: "Greeter", implementation: "Ticket"),
             ServiceSpec(service: "Greeter", implementation: "Ticket", name: "shared", lifetime: .singleton)],
            catalog: catalog)
        let first = try services.resolve(Greeter.self) as? Ticket
        let second = try services.resolve(Greeter.self) as? Ticket
        #expect(first != nil && first !== second, "transient by the implementation's declaration")
        let shared = try services.resolve(Greeter.self, name: "shared") as? Ticket
        let again = try services.resolve(Greeter.self, name: "shared") as? Ticket
        #expect(shared != nil && shared === again)
        #expect(services.definitions.map(\.lifetime) == [.transient, .singleton])
    }
}
