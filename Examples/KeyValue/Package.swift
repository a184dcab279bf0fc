// swift-tools-version:6.1
import PackageDescription

// kvd: an HTTP key-value daemon on HiveKit. A Hummingbird 2 server runs as a ServiceModule;
// a store module keeps the data and snapshots it; the HTTP handlers reach both through the
// service registry. `scripts/test` builds it and Tests/HivedTests/Examples runs it.
let package = Package(
    name: "KeyValue",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "hived", path: "../.."),
        // No default traits: neither swift-configuration nor full Foundation is needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "KeyValueModules",
            dependencies: [
                .product(name: "HiveKit", package: "hived"),
                .product(name: "HiveServiceLifecycle", package: "hived"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "kvd",
            dependencies: [
                "KeyValueModules",
                .product(name: "HiveKit", package: "hived"),
                .product(name: "HiveDaemon", package: "hived"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
