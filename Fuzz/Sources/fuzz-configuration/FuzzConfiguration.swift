import CFuzzer
import HiveDaemon
import HiveKit

/// A module type that reads its settings the way hived's `probe` does, so the fuzzer
/// reaches the typed settings accessors and their errors.
struct FuzzModule: Module {
    init(_ descriptor: ModuleDescriptor) throws {
        let settings = descriptor.settings
        _ = try settings.string("path")
        _ = try settings.strings("fail_on")
        for key in ["stall_on", "block_on"] {
            guard let durations = try settings.settings(key) else { continue }
            for name in durations.values.keys.sorted() { _ = try durations.duration(name) }
        }
        _ = try settings.int("count")
        _ = try settings.bool("enabled")
        _ = try settings.double("ratio")
    }
}

let catalog: ModuleCatalog = {
    var catalog = ModuleCatalog()
    catalog.register("probe", settings: .any) { try FuzzModule($0) }
    catalog.register("echo", settings: .any) { try FuzzModule($0) }
    return catalog
}()

/// libFuzzer's entry point: one configuration text per call.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        // What check-config does with a file: parse and validate it, then build every module
        // it names (enabled or not) through the catalog, which reads their settings.
        let configuration = try DaemonConfiguration.parse(text, catalog: catalog, daemonName: "fuzz")
        for module in configuration.modules { _ = try catalog.instantiate(module) }
    } catch {
        _ = error.description
    }
    return 0
}

/// The executable's entry point (SwiftPM links `main` to it): runs libFuzzer's driver.
@_cdecl("fuzz_configuration_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { fuzzConfiguration($0!, $1) }
}
