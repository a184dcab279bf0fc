// swift-tools-version:6.1
import PackageDescription

// Coverage-guided fuzzing (libFuzzer, the toolchain's -sanitize=fuzzer) of the
// configuration parser and of the router's URL and pattern parsing. A package of its own,
// so the main build never compiles it; `scripts/fuzz` builds it with the sanitizers and
// runs it (a short run is part of `scripts/test`).
let package = Package(
    name: "HiveFuzz",
    dependencies: [
        .package(name: "hived", path: ".."),
    ],
    targets: [
        // libFuzzer's LLVMFuzzerRunDriver, which each target's entry point calls.
        .systemLibrary(name: "CFuzzer"),
        // Configuration text → DaemonOptions.loadConfiguration(): YAML, keys, module
        // settings, services; must end in a value or a HiveError, quickly and small.
        .executableTarget(
            name: "fuzz-configuration",
            dependencies: [
                "CFuzzer",
                .product(name: "HiveDaemon", package: "hived"),
                .product(name: "HiveKit", package: "hived"),
            ]
        ),
        // "PATTERN\nURL" → Router.register(PATTERN), canOpen(URL), canOpen(PATTERN), unregister.
        .executableTarget(
            name: "fuzz-router",
            dependencies: ["CFuzzer", .product(name: "HiveKit", package: "hived")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
