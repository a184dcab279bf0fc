// swift-tools-version:6.1
import PackageDescription

// A package that uses only the HiveKit runtime, as an application embedding modules would.
// `scripts/test` builds it to prove the runtime pulls in neither libsystemd nor libyaml:
// its source refuses to compile if their modules, or the daemon layer, are importable. It
// also declares its module type with an annotation, with no compiler flag of its own.
let package = Package(
    name: "RuntimeOnly",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "hived", path: "../../..")],
    targets: [
        .executableTarget(
            name: "RuntimeOnly",
            dependencies: [.product(name: "HiveKit", package: "hived")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
