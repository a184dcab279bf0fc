import Foundation
import TestSupport
import Testing

/// A malformed annotation is a configuration error of the daemon: in a shared object hived
/// loads (here preloaded, as a plugin library would be), its `hivekit_annotations` entry
/// that is no function makes `check-config` and a run exit 78, naming the library.
@Suite struct AnnotationErrorTests {
    /// A C library with one entry in hived's annotation section that is not a function,
    /// linked against `libswiftCore.so` as a Swift plugin is (the scan opens only images
    /// that may hold Swift code).
    static let source = """
        __attribute__((used, section("hivekit_annotations"))) static const unsigned long entry = 5;
        """

    /// Compiles the library into `directory`.
    static func library(in directory: TestDirectory) async throws -> String {
        try await SharedLibrary.compile(
            Self.source, name: "broken", in: directory,
            arguments: ["-L", try await SharedLibrary.swiftLibraries(), "-Wl,--no-as-needed", "-lswiftCore"])
    }

    @Test func aMalformedAnnotationInALoadedLibraryIsAConfigurationError() async throws {
        let directory = try TestDirectory()
        let library = try await Self.library(in: directory)
        let config = try directory.write("hived.yaml", "modules: [{name: e, type: echo}]\n")
        let expected = "malformed annotation in \(library): entry 0 of section hivekit_annotations is not a function of this image (0x5)"

        let check = try HivedProcess(["check-config", config], in: directory, notify: false, environment: ["LD_PRELOAD": library])
        #expect(try await check.exitStatus() == 78)
        #expect(check.stderr.contains(expected), "\(check.stderr)")

        let run = try HivedProcess(["run", "--config", config], in: directory, environment: ["LD_PRELOAD": library])
        #expect(try await run.exitStatus() == 78)
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(!(run.notify?.messages ?? []).contains { $0.contains("READY=1") }, "it never starts")
    }
}
