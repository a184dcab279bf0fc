import Foundation
@testable import HiveKit
import Testing

// Broken annotations, each in a section of its own so that the program's real section
// stays valid; each test scans its section with a registry of its own.

@used @section("hivekit_test_duplicate") let duplicateFirst: HiveAnnotation = { HiveAnnotations.module(AnnotatedCart.self, name: "twice") { _ in AnnotatedCart() } }
@used @section("hivekit_test_duplicate") let duplicateSecond: HiveAnnotation = { HiveAnnotations.module(AnnotatedShop.self, name: "twice") }
@used @section("hivekit_test_garbage") let garbage: (Int, Int) = (1, 2)
@used @section("hivekit_test_nothing") let declaresNothing: HiveAnnotation = {}
@used @section("hivekit_test_two") let declaresTwo: HiveAnnotation = {
    HiveAnnotations.module(AnnotatedCart.self, name: "one") { _ in AnnotatedCart() }
    HiveAnnotations.module(AnnotatedCart.self, name: "two") { _ in AnnotatedCart() }
}
@used @section("hivekit_test_ragged") let ragged: UInt32 = 7

// Where the linker placed each section in this program, as HiveKit's own references place
// `hivekit_annotations` (the registry reads this program's sections from memory alone).
@_extern(c, "__start_hivekit_test_duplicate") func startOfDuplicate()
@_extern(c, "__stop_hivekit_test_duplicate") func stopOfDuplicate()
@_extern(c, "__start_hivekit_test_garbage") func startOfGarbage()
@_extern(c, "__stop_hivekit_test_garbage") func stopOfGarbage()
@_extern(c, "__start_hivekit_test_nothing") func startOfNothing()
@_extern(c, "__stop_hivekit_test_nothing") func stopOfNothing()
@_extern(c, "__start_hivekit_test_two") func startOfTwo()
@_extern(c, "__stop_hivekit_test_two") func stopOfTwo()
@_extern(c, "__start_hivekit_test_ragged") func startOfRagged()
@_extern(c, "__stop_hivekit_test_ragged") func stopOfRagged()

@Suite struct MalformedAnnotationTests {
    static var executable: String { URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path }

    /// The section `name` of this program, from `start` to `stop`.
    static func section(
        _ name: String, _ start: @convention(c) () -> Void, _ stop: @convention(c) () -> Void
    ) -> AnnotationSection {
        AnnotationSection(
            name: name, start: unsafeBitCast(start, to: UnsafeRawPointer.self),
            stop: unsafeBitCast(stop, to: UnsafeRawPointer.self))
    }

    static let sections = [
        "hivekit_test_duplicate": section("hivekit_test_duplicate", startOfDuplicate, stopOfDuplicate),
        "hivekit_test_garbage": section("hivekit_test_garbage", startOfGarbage, stopOfGarbage),
        "hivekit_test_nothing": section("hivekit_test_nothing", startOfNothing, stopOfNothing),
        "hivekit_test_two": section("hivekit_test_two", startOfTwo, stopOfTwo),
        "hivekit_test_ragged": section("hivekit_test_ragged", startOfRagged, stopOfRagged),
    ]

    func error(scanning section: String) -> HiveError? {
        #expect(throws: HiveError.self) { try AnnotationRegistry(section: Self.sections[section]!).all() }
    }

    @Test func aNameDeclaredTwiceIsAnErrorNamingBothPlaces() throws {
        let registry = AnnotationRegistry(section: Self.sections["hivekit_test_duplicate"]!)
        let error = #expect(throws: HiveError.self) { try registry.all() }
        #expect(error?.code == .duplicateRegistration)
        let file = "HiveKitTests/MalformedAnnotationTests.swift"
        #expect(error?.message == "module type 'twice' is declared twice: at \(file):8 in \(Self.executable) and at \(file):9 in \(Self.executable)")
        let again = #expect(throws: HiveError.self) { try registry.all() }
        #expect(again?.message == error?.message, "an error stays")
    }

    @Test func anEntryThatIsNotAFunctionOfTheImageIsMalformed() {
        let error = error(scanning: "hivekit_test_garbage")
        #expect(error?.code == .invalidAnnotation)
        #expect(error?.message == "malformed annotation in \(Self.executable): entry 0 of section hivekit_test_garbage is not a function of this image (0x1)")
    }

    @Test func anEntryMustDeclareExactlyOneThing() {
        #expect(error(scanning: "hivekit_test_nothing")?.message.hasSuffix(
            "entry 0 of section hivekit_test_nothing declares nothing (an annotation must call HiveAnnotations.module or .service once)") == true)
        let two = error(scanning: "hivekit_test_two")
        #expect(two?.code == .invalidAnnotation)
        #expect(two?.message.hasSuffix(
            "entry 0 of section hivekit_test_two declares 2 things, at HiveKitTests/MalformedAnnotationTests.swift:13 and HiveKitTests/MalformedAnnotationTests.swift:14") == true)
    }

    @Test func aSectionOfPartialEntriesIsMalformed() {
        #expect(error(scanning: "hivekit_test_ragged")?.message.hasSuffix(
            "section hivekit_test_ragged holds 4 bytes, not a whole number of 8-byte entries") == true)
    }

    @Test func aSectionNoImageHasIsEmpty() throws {
        #expect(try AnnotationRegistry(section: AnnotationSection(name: "hivekit_test_absent")).all().isEmpty)
    }
}
