import Foundation
@testable import HiveKit
import Testing

/// Annotations found in this test program (see `AnnotationFixtures.swift`), added to
/// catalogs and used by a hive.
@Suite struct AnnotationTests {
    /// The line of the fixture that declares `constant`.
    static func fixtureLine(_ constant: String) throws -> Int {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("AnnotationFixtures.swift")
        let lines = try String(contentsOf: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains("let \(constant): HiveAnnotation") }) + 1
    }

    static var executable: String { URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path }

    @Test func theProgramsDeclarationsAreListedWithTheirPlaces() throws {
        let declarations = try HiveAnnotations.declarations()
        let file = "HiveKitTests/AnnotationFixtures.swift"
        let expected = [
            AnnotationDeclaration(kind: .module, name: "AnnotatedShop", file: file, line: try Self.fixtureLine("annotatedShop"), image: Self.executable),
            AnnotationDeclaration(kind: .module, name: "annotated-cart", file: file, line: try Self.fixtureLine("annotatedCart"), image: Self.executable),
            AnnotationDeclaration(
                kind: .service("AnnotationClock"), name: "AnnotatedClock", file: file, line: try Self.fixtureLine("annotatedClock"),
                image: Self.executable),
        ]
        for declaration in expected {
            #expect(declarations.contains(declaration), "\(declaration) not in \(declarations)")
        }
        #expect(expected[2].description == "implementation 'AnnotatedClock' of service 'AnnotationClock' at \(file):\(expected[2].line) in \(Self.executable)")
    }

    @Test func aCatalogGainsTheDeclaredModuleTypes() async throws {
        var catalog = ModuleCatalog()
        catalog.register("coded") { _ in AnnotatedCart() }
        try catalog.registerAnnotations()
        try catalog.registerAnnotations()  // again: nothing new, no error
        #expect(catalog.contains("AnnotatedShop") && catalog.contains("annotated-cart") && catalog.contains("coded"))

        let settings = Settings(["currency": .string("CHF")])
        let hive = Hive()
        try await hive.register(ModuleDescriptor(name: "shop", type: "AnnotatedShop", settings: settings), catalog: catalog)
        try await hive.start()
        #expect(try await hive.mediator.perform(target: "shop", action: "currency", as: String.self) == "CHF")
        #expect(hive.mediator.definitions.map(\.exported) == [true], "the annotation exports it")
        #expect(try await hive.performFromOutside(target: "shop", action: "currency", parameters: [:]) as? String == "CHF")
        await hive.stop()

        let location = SourceLocation(path: "shop.yaml", line: 3)
        let bad = ModuleDescriptor(
            name: "shop", type: "AnnotatedShop", settings: Settings(["color": .string("red")]), location: location)
        let error = #expect(throws: HiveError.self) { try catalog.instantiate(bad) }
        #expect(error?.module == "shop")
        #expect(error?.location == location)
        #expect(error?.message == "unknown setting 'color'; expected currency", "AnnotatedShop's settingKeys")
        let cart = ModuleDescriptor(name: "cart", type: "annotated-cart", settings: Settings(["color": .string("red")]))
        let none = #expect(throws: HiveError.self) { try catalog.instantiate(cart) }
        #expect(none?.message == "unknown setting 'color'; this module takes no settings", "a factory that lists no keys")
    }

    @Test func aTypeRegisteredInCodeAndDeclaredIsAnErrorNamingBothPlaces() throws {
        var catalog = ModuleCatalog()
        catalog.register("AnnotatedShop") { _ in AnnotatedCart() }
        let codeLine = #line - 1
        let error = #expect(throws: HiveError.self) { try catalog.registerAnnotations() }
        #expect(error?.code == .duplicateRegistration)
        let annotation = "HiveKitTests/AnnotationFixtures.swift:\(try Self.fixtureLine("annotatedShop")) in \(Self.executable)"
        #expect(error?.message == "module type 'AnnotatedShop' is declared twice: registered at HiveKitTests/AnnotationTests.swift:\(codeLine) and declared by an annotation at \(annotation)")
        #expect(!catalog.contains("annotated-cart"), "nothing is added when one fails")
    }

    @Test func aServiceCatalogGainsTheDeclaredImplementations() throws {
        var catalog = ServiceCatalog()
        try catalog.registerAnnotations()
        let services = Hive().services
        try services.register([ServiceSpec(service: "AnnotationClock", implementation: "AnnotatedClock")], catalog: catalog)
        let first = try services.resolve(AnnotationClock.self) as? AnnotatedClock
        let second = try services.resolve(AnnotationClock.self) as? AnnotatedClock
        #expect(first?.now() == 42)
        #expect(first !== second, "transient, as the annotation declares")
        #expect(services.definitions == [
            ServiceDefinition(service: "AnnotationClock", name: nil, lifetime: .transient, implementation: "AnnotatedClock", owner: nil),
        ])

        var coded = ServiceCatalog()
        coded.register(AnnotationClock.self, implementation: "AnnotatedClock") { AnnotatedClock() }
        let error = #expect(throws: HiveError.self) { try coded.registerAnnotations() }
        #expect(error?.code == .duplicateRegistration)
        #expect(error?.message.hasPrefix("implementation 'AnnotatedClock' of service 'AnnotationClock' is declared twice: registered at HiveKitTests/AnnotationTests.swift:") == true)
    }

    @Test func declaringOutsideAScanDoesNothing() throws {
        let before = try HiveAnnotations.declarations()
        HiveAnnotations.module(AnnotatedCart.self, name: "stray") { _ in AnnotatedCart() }
        #expect(try HiveAnnotations.declarations() == before)
    }
}
