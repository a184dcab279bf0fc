// swift-tools-version:6.1
import PackageDescription

// The README's "Your own daemon": a daemon named `mydaemon` with two modules of its own,
// built on HiveKit and HiveDaemon as a user's package would be. `scripts/test` builds it
// and Tests/HivedTests/Examples runs it.
let package = Package(
    name: "MyDaemon",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "hived", path: "../..")],
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
    ],
    swiftLanguageModes: [.v6]
)
