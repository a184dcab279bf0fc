import HiveKit
import Testing

protocol Store: Sendable {}
struct MemoryStore: Store {}

@Suite struct ServiceCatalogTests {
    var catalog: ServiceCatalog {
        var catalog = ServiceCatalog()
        catalog.register(Greeter.self, implementation: "English") { English() }
        catalog.register(Greeter.self, implementation: "French") { French() }
        catalog.register(Store.self, implementation: "MemoryStore") { MemoryStore() }
        return catalog
    }

    @Test func registersConfiguredServices() throws {
        let services = Hive().services
        try services.register(
            [ServiceSpec(service: "Greeter", implementation: "French"),
             ServiceSpec(service: "Greeter", implementation: "English", name: "en", lifetime: .transient)],
            catalog: catalog)
        #expect(try services.resolve(Greeter.self).greet("x") == "Bonjour, x")
        #expect(try services.resolve(Greeter.self, name: "en").greet("x") == "Hello, x")
        #expect(catalog.serviceNames == ["Greeter", "Store"])
        #expect(catalog.implementationNames == ["English", "French", "MemoryStore"])
    }

    @Test func nonConformingImplementationIsATypeMismatch() {
        let location = SourceLocation(path: "hived.yaml", line: 12)
        let spec = ServiceSpec(service: "Store", implementation: "French", location: location)
        let error = #expect(throws: HiveError.self) { try catalog.validate(spec) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.location == location)
        #expect(error?.message == "implementation 'French' does not conform to service 'Store' (it implements: Greeter)")
    }

    @Test func unknownNamesAreNotRegistered() {
        for spec in [ServiceSpec(service: "Clock", implementation: "English"),
                     ServiceSpec(service: "Greeter", implementation: "German")] {
            let error = #expect(throws: HiveError.self) { try Hive().services.register(spec, catalog: catalog) }
            #expect(error?.code == .notRegistered)
        }
    }

    @Test func aFailingBatchLeavesNothingRegistered() {
        let services = Hive().services
        let error = #expect(throws: HiveError.self) {
            try services.register(
                [ServiceSpec(service: "Store", implementation: "MemoryStore"),
                 ServiceSpec(service: "Greeter", implementation: "English"),
                 ServiceSpec(service: "Greeter", implementation: "French")],
                catalog: catalog)
        }
        #expect(error?.code == .duplicateRegistration)
        #expect(!services.isAvailable(Store.self))
        #expect(!services.isAvailable(Greeter.self))
    }
}
