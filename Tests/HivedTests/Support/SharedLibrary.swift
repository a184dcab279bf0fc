import Foundation
import TestSupport

/// C shared objects compiled by a test with the toolchain's clang, for hived to preload.
enum SharedLibrary {
    /// Compiles `source` into `lib<name>.so` in `directory` (with `arguments` for the link)
    /// and returns its path.
    static func compile(
        _ source: String, name: String, in directory: TestDirectory, arguments: [String] = []
    ) async throws -> String {
        let file = try directory.write("\(name).c", source)
        let library = directory.file("lib\(name).so")
        // The toolchain's clang: usr/bin beside usr/lib/swift/linux.
        let clang = try await ExampleCommand.run(
            URL(fileURLWithPath: try await swiftLibraries() + "/../../../bin/clang").standardized,
            ["-shared", "-fPIC", "-o", library, file] + arguments)
        guard clang.status == 0 else { throw TestFailure("clang failed: \(clang.stderr)") }
        return library
    }

    /// The directory of the `libswiftCore.so` the debug hived runs with.
    static func swiftLibraries() async throws -> String {
        let ldd = try await ExampleCommand.run(URL(fileURLWithPath: "/usr/bin/ldd"), [HivedProcess.executable.path])
        guard let line = ldd.stdout.split(separator: "\n").first(where: { $0.contains("libswiftCore.so => ") }),
            let path = line.split(separator: " ").first(where: { $0.hasSuffix("/libswiftCore.so") })
        else { throw TestFailure("the debug hived links no libswiftCore.so: \(ldd.stdout)") }
        return String(path.dropLast("/libswiftCore.so".count))
    }
}
