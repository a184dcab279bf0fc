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

    /// Adds what `pick` takes from each declaration to `catalog`, all or nothing: a name
    /// `origin` finds registered already is skipped when it was registered from the same
    /// place (an earlier call), and is an error otherwise.
    ///
    /// - Throws: ``HiveError``: `.duplicateRegistration` naming both places, or what
    ///   ``all()`` throws. The catalog is unchanged then.
    func register<Catalog, Declared>(
        into catalog: inout Catalog, _ pick: (Annotated) -> Declared?,
        origin: (Catalog, Declared) -> String?,
        add: (inout Catalog, Declared, _ place: String) -> Void
    ) throws(HiveError) {
        var added = catalog
        for found in try all() {
            guard let declared = pick(found.annotated) else { continue }
            let declaration = found.declaration
            if let existing = origin(added, declared) {
                if existing == declaration.place { continue }
                throw HiveError(
                    .duplicateRegistration,
                    "\(declaration.subject) is declared twice: registered at \(existing)"
                        + " and declared by an annotation at \(declaration.place)")
            }
            add(&added, declared, declaration.place)
        }
        catalog = added
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
