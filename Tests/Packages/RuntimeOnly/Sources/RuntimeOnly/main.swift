import HiveKit

#if canImport(CSystemd) || canImport(CYAML) || canImport(HiveDaemon)
#error("the HiveKit product must not pull in CSystemd, CYAML or the daemon layer")
#endif

/// A module that counts the events it receives; declared with an annotation, which a
/// package using HiveKit compiles with no flag of its own.
struct Counter: ConfigurableModule {
    init(_ descriptor: ModuleDescriptor) throws {}

    func ready(_ context: ModuleContext) async throws {
        context.logger.info("ready in \(context.environment)")
    }
}

@used @section("hivekit_annotations") let counterModule: HiveAnnotation = { HiveAnnotations.module(Counter.self) }

var catalog = ModuleCatalog()
try catalog.registerAnnotations()
#if os(Linux)
guard catalog.typeNames == ["Counter"] else { fatalError("the annotation was not found: \(catalog.typeNames)") }
#endif
let hive = try Hive(modules: try catalog.instantiate([ModuleDescriptor(name: "counter", type: "Counter")]))
try await hive.start()
try await hive.send(.ready)
let failures = await hive.stop()
guard failures.isEmpty, hive.phase == .stopped else {
    fatalError("runtime-only hive did not stop cleanly: \(failures)")
}
print("runtime-only hive ran and stopped; its module type was found by its annotation")
