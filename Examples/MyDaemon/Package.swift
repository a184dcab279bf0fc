// swift-tools-version:6.1
import PackageDescription

// HiveDaemon's "Writing your own daemon": a daemon named `mydaemon` with modules of its own,
// built on HiveKit and HiveDaemon as a user's package would be; the same daemon with a `main`
// of its own that bootstraps its logging (as a DaemonProgram, and with HiveDaemon.main); the
// same daemon run as a service of an application's ServiceGroup; and the README's `hello`.
// `scripts/test` builds it and Tests/HivedTests/Examples runs it.
let package = Package(
    name: "MyDaemon",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "hived", path: "../.."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    ],
    targets: [
        // The modules: they need HiveKit alone.
        .target(
            name: "MyDaemonModules",
            dependencies: [.product(name: "HiveKit", package: "hived")]
        ),
        // The daemon: its identity, its module types, and the command line of HiveDaemon.
        .executableTarget(
            name: "mydaemon",
            dependencies: [
                "MyDaemonModules",
                .product(name: "HiveKit", package: "hived"),
                .product(name: "HiveDaemon", package: "hived"),
            ]
        ),
        // The README's example: a module and the few lines that run it as a daemon, one file.
        .executableTarget(
            name: "hello",
            dependencies: [
                .product(name: "HiveKit", package: "hived"),
                .product(name: "HiveDaemon", package: "hived"),
            ]
        ),
        // The same daemon with a `main` of its own that bootstraps swift-log's
        // StreamLogHandler on stdout, then hands over to HiveDaemon's command line.
        .executableTarget(
            name: "mydaemon-logging",
            dependencies: [
                "MyDaemonModules",
                .product(name: "HiveKit", package: "hived"),
                .product(name: "HiveDaemon", package: "hived"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The application's own swift-log handler, bootstrapped before the daemon starts.
        .target(
            name: "AppLogging",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),
        // The same daemon with a `main` of its own: the application's logging, then
        // HiveDaemon.main.
        .executableTarget(
            name: "mydaemon-main",
            dependencies: [
                "AppLogging",
                "MyDaemonModules",
                .product(name: "HiveKit", package: "hived"),
                .product(name: "HiveDaemon", package: "hived"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The same daemon with a swift-metrics backend of the application's own,
        // bootstrapped in a `main` of its own before the command line runs.
        .executableTarget(
            name: "mydaemon-metrics",
            dependencies: [
                "MyDaemonModules",
                .product(name: "HiveKit", package: "hived"),
                .product(name: "HiveDaemon", package: "hived"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The same modules as one service of an application's ServiceGroup, beside a
        // service of its own; a ServiceLifecycle service runs as a module too.
        .executableTarget(
            name: "mydaemon-group",
            dependencies: [
                "AppLogging",
                "MyDaemonModules",
                .product(name: "HiveKit", package: "hived"),
                .product(name: "HiveDaemon", package: "hived"),
                .product(name: "HiveDaemonService", package: "hived"),
                .product(name: "HiveServiceLifecycle", package: "hived"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // HiveDaemonService's comparison: a small daemon of the same shape with ServiceLifecycle alone.
        .executableTarget(
            name: "mydaemon-lifecycle",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
