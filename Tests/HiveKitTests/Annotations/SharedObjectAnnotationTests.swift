import Foundation
@testable import HiveKit
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc

/// Annotations in a shared object loaded after start: a small C library, compiled here
/// and linked against `libswiftCore.so` as a Swift plugin is (the scan opens only images
/// that may hold Swift code), whose annotation calls back into this program through a
/// hook the test sets (this program does not export its symbols to libraries). Its
/// section is one of its own, so that nothing else in the process sees it.
@Suite(.serialized) struct SharedObjectAnnotationTests {
    static let source = """
        static void (*hook)(void);
        void hivekit_test_set_hook(void (*h)(void)) { hook = h; }
        static void annotation(void) { if (hook) hook(); }
        __attribute__((used, section("hivekit_test_plugin"))) static void (*entry)(void) = annotation;
        """

    /// Compiles the library into `directory` with the toolchain's `clang` and loads it.
    /// Waits for the compiler without holding a thread of the pool (other tests' budgets
    /// need them).
    static func load(_ name: String, in directory: String) async throws -> (path: String, handle: UnsafeMutableRawPointer) {
        let source = directory + "/plugin.c"
        let library = directory + "/\(name).so"
        try Self.source.write(toFile: source, atomically: true, encoding: .utf8)
        let clang = Process()
        clang.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        clang.arguments = [
            "clang", "-shared", "-fPIC", "-O1", "-o", library, source,
            "-L", try swiftLibraries(), "-Wl,--no-as-needed", "-lswiftCore",
        ]
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            clang.terminationHandler = { _ in continuation.resume() }
            do {
                try clang.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
        guard clang.terminationStatus == 0 else { throw TestFailure("clang failed (\(clang.terminationStatus))") }
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            throw TestFailure("dlopen: \(String(cString: dlerror()))")
        }
        return (library, handle)
    }

    /// The directory of the `libswiftCore.so` this program runs with.
    static func swiftLibraries() throws -> String {
        guard let core = LoadedImage.all().first(where: { $0.path.hasSuffix("/libswiftCore.so") }) else {
            throw TestFailure("libswiftCore.so is not loaded")
        }
        return String(core.path.dropLast("/libswiftCore.so".count))
    }

    @Test func aSharedObjectLoadedLaterIsScannedAtTheNextCall() async throws {
        let directory = try TestDirectory()
        let registry = AnnotationRegistry(section: AnnotationSection(name: "hivekit_test_plugin"))
        #expect(try registry.all().isEmpty, "no image has the section yet")

        let (path, handle) = try await Self.load("with-hook", in: directory.path)
        defer { dlclose(handle) }
        typealias SetHook = @convention(c) (HiveAnnotation?) -> Void
        let setHook = unsafeBitCast(try #require(dlsym(handle, "hivekit_test_set_hook")), to: SetHook.self)
        setHook { HiveAnnotations.module(AnnotatedCart.self, name: "plugin-cart", file: "plugin.c", line: 4) { _ in AnnotatedCart() } }

        let found = try registry.all()
        #expect(found.map(\.declaration) == [
            AnnotationDeclaration(kind: .module, name: "plugin-cart", file: "plugin.c", line: 4, image: path),
        ])
        #expect(try registry.all().count == 1, "an image is scanned once")
    }

    @Test func aNameDeclaredInTwoImagesIsAnErrorNamingBoth() async throws {
        let directory = try TestDirectory()
        let (first, firstHandle) = try await Self.load("first", in: directory.path)
        defer { dlclose(firstHandle) }
        let (second, secondHandle) = try await Self.load("second", in: directory.path)
        defer { dlclose(secondHandle) }
        typealias SetHook = @convention(c) (HiveAnnotation?) -> Void
        let setFirst = unsafeBitCast(try #require(dlsym(firstHandle, "hivekit_test_set_hook")), to: SetHook.self)
        let setSecond = unsafeBitCast(try #require(dlsym(secondHandle, "hivekit_test_set_hook")), to: SetHook.self)
        setFirst { HiveAnnotations.module(AnnotatedCart.self, name: "plugin-cart", file: "first.c", line: 4) { _ in AnnotatedCart() } }
        setSecond { HiveAnnotations.module(AnnotatedShop.self, name: "plugin-cart", file: "second.c", line: 9) }

        let error = #expect(throws: HiveError.self) { try AnnotationRegistry(section: AnnotationSection(name: "hivekit_test_plugin")).all() }
        #expect(error?.code == .duplicateRegistration)
        #expect(error?.message == "module type 'plugin-cart' is declared twice: at first.c:4 in \(first) and at second.c:9 in \(second)",
                "\(error?.message ?? "")")
    }

    @Test func aMalformedSharedObjectIsNamed() async throws {
        let directory = try TestDirectory()
        let (path, handle) = try await Self.load("without-hook", in: directory.path)
        defer { dlclose(handle) }
        let error = #expect(throws: HiveError.self) { try AnnotationRegistry(section: AnnotationSection(name: "hivekit_test_plugin")).all() }
        #expect(error?.code == .invalidAnnotation)
        #expect(error?.message.hasPrefix("malformed annotation in \(path): entry 0 of section hivekit_test_plugin declares nothing") == true)
    }
}

#endif
