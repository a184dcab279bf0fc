import HiveKit

// Annotations of the test program itself, in the real section: found by every scan of
// this process (HiveDaemon's options too), so their names are unique to these tests.

/// A module type declared with an annotation, built from its configuration entry; its
/// modules export their `currency` action to calls from outside the process.
struct AnnotatedShop: ConfigurableModule {
    static let settingKeys: SettingKeys = ["currency"]
    let currency: String

    init(_ descriptor: ModuleDescriptor) throws {
        currency = try descriptor.settings.string("currency") ?? "EUR"
    }

    func setup(_ context: ModuleContext) async throws {
        try context.mediator.register("currency") { [currency] _ in currency }
    }
}

@used @section("hivekit_annotations") let annotatedShop: HiveAnnotation = { HiveAnnotations.module(AnnotatedShop.self, exportedActions: ["currency"]) }

/// A module type declared under a name of its own, with a factory.
struct AnnotatedCart: Module {}

@used @section("hivekit_annotations") let annotatedCart: HiveAnnotation = { HiveAnnotations.module(AnnotatedCart.self, name: "annotated-cart") { _ in AnnotatedCart() } }

/// A service and an implementation declared with an annotation, transient by its own choice.
protocol AnnotationClock: Sendable { func now() -> Int }
final class AnnotatedClock: AnnotationClock {
    func now() -> Int { 42 }
}

@used @section("hivekit_annotations") let annotatedClock: HiveAnnotation = { HiveAnnotations.service(AnnotationClock.self, implementation: AnnotatedClock.self, lifetime: .transient) { AnnotatedClock() } }
