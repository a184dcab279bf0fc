import HiveKit

#if canImport(CSystemd) || canImport(CYAML) || canImport(HiveDaemon)
#error("the HiveKit product must not pull in CSystemd, CYAML or the daemon layer")
#endif

/// A module that counts the events it receives.
struct Counter: Module {
    func ready(_ context: ModuleContext) async throws {
        context.logger.info("ready in \(context.environment)")
    }
}

let hive = try Hive(modules: [ModuleRegistration(name: "counter", module: Counter())])
try await hive.start()
try await hive.send(.ready)
let failures = await hive.stop()
guard failures.isEmpty, hive.phase == .stopped else {
    fatalError("runtime-only hive did not stop cleanly: \(failures)")
}
print("runtime-only hive ran and stopped")
