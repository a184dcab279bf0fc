import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Every annotation found in the process, scanned once per image: the executable and
/// the shared objects loaded so far; a shared object loaded later is scanned on the
/// next call. A malformed image is an error every time.
final class AnnotationRegistry: Sendable {
    static let shared = AnnotationRegistry(section: .annotations)

    private struct State {
        /// Load bias and path of every image scanned.
        var scanned: [String] = []
        var found: [FoundAnnotation] = []
        var failure: HiveError?
    }

    let section: AnnotationSection
    private let state = Mutex(State())

    init(section: AnnotationSection) {
        self.section = section
    }

    /// Every declaration, after scanning the images not scanned yet.
    ///
    /// - Throws: ``HiveError`` `.invalidAnnotation` for a malformed image,
    ///   `.duplicateRegistration` for a name declared twice (naming both places).
    func all() throws(HiveError) -> [FoundAnnotation] {
        try state.withLock { state throws(HiveError) -> [FoundAnnotation] in
            if let failure = state.failure { throw failure }
            #if canImport(Glibc)
            let hiveKitCode = AnnotationSection.hiveKitCode
            for image in LoadedImage.all() {
                let holdsHiveKit = image.contains(hiveKitCode, flags: UInt32(PF_X))
                guard holdsHiveKit || image.mayHoldSwift else { continue }
                let key = "\(image.base) \(image.path)"
                guard !state.scanned.contains(key) else { continue }
                do throws(HiveError) {
                    state.found += try AnnotationScanner.scan(image, section: section, holdsHiveKit: holdsHiveKit)
                    state.scanned.append(key)
                } catch {
                    state.failure = error
                    throw error
                }
            }
            #endif
            if let duplicate = Self.duplicate(in: state.found) {
                state.failure = duplicate
                throw duplicate
            }
            return state.found
        }
    }

    /// The first name declared twice: two module types, or two implementations of one
    /// service, under the same name.
    static func duplicate(in found: [FoundAnnotation]) -> HiveError? {
        // Subject → place: a dictionary type start-up already uses.
        var first: [String: String] = [:]
        for annotation in found {
            let declaration = annotation.declaration
            let key = declaration.subject
            if let earlier = first[key] {
                return HiveError(
                    .duplicateRegistration, "\(key) is declared twice: at \(earlier) and at \(declaration.place)")
            }
            first[key] = declaration.place
        }
        return nil
    }
}
