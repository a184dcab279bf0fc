// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "hived",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HiveKit", targets: ["HiveKit"]),
        .library(name: "HiveDaemon", targets: ["HiveDaemon"]),
        .library(name: "HiveServiceLifecycle", targets: ["HiveServiceLifecycle"]),
        .library(name: "HiveDaemonService", targets: ["HiveDaemonService"]),
        .executable(name: "hived", targets: ["hived"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // glibc's statfs and malloc_trim, which the Glibc module does not declare.
        .systemLibrary(name: "CLinux"),
        // Where the image HiveKit is linked into holds its annotations in memory (the
        // linker's weak, hidden __start_/__stop_hivekit_annotations, which Swift cannot declare).
        .systemLibrary(name: "CHiveKit"),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // The module runtime: pure Swift (and CHiveKit's header), swift-log only, so a
        // package that uses modules builds anywhere without libsystemd or libyaml.
        .target(
            name: "HiveKit",
            dependencies: [
                "CHiveKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            // `@_extern(c)` declares dl_iterate_phdr, which Glibc hides without _GNU_SOURCE
            // (annotation scanning). Packages that use HiveKit need no flag.
            swiftSettings: [.enableExperimentalFeature("Extern")]
        ),
        // The daemon layer: signals, systemd, configuration files, journald, the command line,
        // logind, PSI, the control socket, metrics.
        .target(
            name: "HiveDaemon",
            dependencies: [
                "HiveKit",
                "CSystemd",
                "CYAML",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "CLinux",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // `@_extern(c)` declares the Swift runtime's argument hook (ArgumentCapture):
            // `CommandLine.arguments` without `/proc`.
            swiftSettings: [.enableExperimentalFeature("Extern")]
        ),
        // swift-service-lifecycle interop, kept out of HiveKit and HiveDaemon: a `Service`
        // as a module (HiveKit alone), and a daemon as a `Service` (HiveDaemon).
        .target(
            name: "HiveServiceLifecycle",
            dependencies: [
                "HiveKit",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "HiveDaemonService",
            dependencies: [
                "HiveKit",
                "HiveDaemon",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "hived",
            dependencies: [
                "HiveKit",
                "HiveDaemon",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the test targets share: scripted modules, recorders, log stores, latches,
        // waits, threads, the notify socket, clients and directories. A target of the tests alone (no product names it).
        .target(
            name: "TestSupport",
            dependencies: [
                "HiveKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "HiveKitTests",
            dependencies: ["HiveKit", "TestSupport"],
            // `@_extern(c)` names the linker's bounds of the tests' own annotation sections.
            swiftSettings: [.enableExperimentalFeature("Extern")]
        ),
        .testTarget(
            name: "HiveDaemonTests",
            dependencies: ["HiveDaemon", "HiveKit", "TestSupport"]
        ),
        .testTarget(
            name: "HiveServiceLifecycleTests",
            dependencies: [
                "HiveKit",
                "TestSupport",
                "HiveServiceLifecycle",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "HivedTests",
            dependencies: ["hived", "HiveKit", "TestSupport"],
            exclude: ["Control/varlink_driver.py"]
        ),
        // Tests that block their threads or burn CPU (semaphores, a cancellation handler that
        // blocks, ArgumentParser's parses, a quarter of a million YAML nodes): `scripts/test`
        // runs them in a test process of their own, never beside the timing-sensitive ones.
        .testTarget(
            name: "BlockingTests",
            dependencies: [
                "HiveKit",
                "HiveDaemon",
                "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "SystemdTests",
            dependencies: ["hived", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
