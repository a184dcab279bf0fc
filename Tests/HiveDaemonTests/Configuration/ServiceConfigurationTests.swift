@testable import HiveDaemon
import HiveKit
import Testing

@Suite struct ServiceConfigurationTests {
    /// An entry without `lifetime` leaves it to the implementation (`lifetime: nil`).
    @Test func serviceEntriesParseWithTheirDefaultsAndLines() throws {
        let text = """
            services:
              - service: Clock
                implementation: SystemClock
              - service: Clock
                implementation: FakeClock
                name: fake
                lifetime: transient
              - {service: Store, implementation: FileStore, lifetime: singleton}
            """
        let services = try parseConfiguration(text).services
        #expect(services == [
            ServiceSpec(service: "Clock", implementation: "SystemClock", location: SourceLocation(path: "test.yaml", line: 2)),
            ServiceSpec(
                service: "Clock", implementation: "FakeClock", name: "fake", lifetime: .transient,
                location: SourceLocation(path: "test.yaml", line: 4)),
            ServiceSpec(
                service: "Store", implementation: "FileStore", lifetime: .singleton,
                location: SourceLocation(path: "test.yaml", line: 8)),
        ])
    }

    @Test(arguments: [
        ("services:\n  - implementation: X\n", 2, "services[0].service: is required"),
        ("services:\n  - service: Clock\n", 2, "services[0].implementation: is required"),
        ("services:\n  - service: Clock\n    implementation: X\n    lifetime: scoped\n", 4,
         "services[0].lifetime: expected one of singleton, transient; got 'scoped'"),
        ("services:\n  - service: Clock\n    implementation: X\n    name: ''\n", 4, "services[0].name: must not be empty"),
        ("services: {service: Clock}\n", 1, "services: expected a list of services, got a map"),
    ])
    func invalidServiceEntriesAreErrors(text: String, line: Int, message: String) throws {
        let error = try #require(configurationError(text))
        #expect(error.code == .invalidConfiguration)
        #expect(error.location?.line == line, "\(error)")
        #expect(error.message == message, "\(error)")
    }

    @Test func aServiceDeclaredTwiceIsAnErrorAtTheSecond() throws {
        let text = """
            services:
              - {service: Clock, implementation: A, name: x}
              - {service: Clock, implementation: B}
              - service: Clock
                implementation: C
                name: x
            """
        let error = try #require(configurationError(text))
        #expect(error.code == .duplicateRegistration)
        #expect(error.location?.line == 6)
        #expect(error.message == "services[2].name: service Clock named 'x' is declared twice (first at line 2)")
    }
}
