// swift-tools-version:6.1
import PackageDescription

// The benchmark suite lives in its own package so the main build and CI never compile
// it. Run everything with `scripts/bench` from the repository root.
let package = Package(
    name: "HiveBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "hived", path: ".."),
        // Already a dependency of HiveKit; named here to build a silent logger.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // The baseline of the scale benchmark (also a dependency of HiveServiceLifecycle).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // Timing, statistics and the result table, shared by both executables.
        .target(name: "BenchSupport"),
        // glibc's mallinfo2, for heap bytes per module.
        .target(name: "CMalloc"),
        // In-process benchmarks of HiveKit: dispatch, memory per module, calls.
        .executableTarget(
            name: "hive-bench",
            dependencies: [
                "BenchSupport",
                "CMalloc",
                .product(name: "HiveKit", package: "hived"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Start, ordered stop and memory of N units: HiveKit against ServiceGroup.
        .executableTarget(
            name: "scale-bench",
            dependencies: [
                "BenchSupport",
                "CMalloc",
                .product(name: "HiveKit", package: "hived"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // sd_notify for the Swift floor.
        .systemLibrary(name: "CNotify", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // The Swift floor daemon-bench compares hived with: READY=1 and nothing else.
        .executableTarget(name: "notify-floor", dependencies: ["CNotify"]),
        // Process-level benchmarks of the hived binary against a C program; no HiveKit.
        .executableTarget(
            name: "daemon-bench",
            dependencies: ["BenchSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
