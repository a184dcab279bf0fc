#if canImport(Glibc)
import Glibc

/// Reads the annotations of loaded images: finds the section in each, checks every entry
/// is a function of that image, and calls it to learn what it declares.
enum AnnotationScanner {
    /// What one image declares; nothing for a shared object whose file cannot be read.
    ///
    /// The image HiveKit is linked into (`holdsHiveKit`: the executable, as SwiftPM links)
    /// is read from memory alone, where the linker's start and stop symbols place the
    /// section, so it works where `/proc` is not mounted and never opens the executable.
    /// Any other image is found in its file's section headers (``ELFSectionReader``).
    ///
    /// - Throws: ``HiveError`` `.invalidAnnotation` naming the image (and the entry) when
    ///   the section is malformed, an entry is not a function of the image, or an entry
    ///   declares nothing or more than one thing.
    static func scan(
        _ image: LoadedImage, section wanted: AnnotationSection, holdsHiveKit: Bool
    ) throws(HiveError) -> [FoundAnnotation] {
        let name = wanted.name
        let section: ELFSectionReader.Section?
        do {
            section = holdsHiveKit
                ? try wanted.inMemory(of: image) : try ELFSectionReader(image: image).section(named: name)
        } catch {
            // The executable must be readable. A shared object that cannot be read (its
            // file replaced by an upgrade since it was loaded, a path gone) is skipped:
            // failing the whole program for a system library would be worse.
            guard image.isExecutable || holdsHiveKit else { return [] }
            throw invalid(image, "cannot read its \(name) section: \(error.reason)")
        }
        guard let section else { return [] }
        let width = UInt(MemoryLayout<HiveAnnotation>.size)
        guard section.size % width == 0, section.address % width == 0 else {
            throw invalid(image, "section \(name) holds \(section.size) bytes, not a whole number of \(width)-byte entries")
        }
        var found: [FoundAnnotation] = []
        let display = image.displayName
        for index in 0..<Int(section.size / width) {
            let entry = UnsafeRawPointer(bitPattern: section.address + UInt(index) * width)!.load(as: UInt.self)
            guard entry != 0, image.contains(entry, flags: UInt32(PF_X)) else {
                throw invalid(image, "entry \(index) of section \(name) is not a function of this image (0x\(String(entry, radix: 16)))")
            }
            let declared = AnnotationCollector.shared.collect(unsafeBitCast(entry, to: HiveAnnotation.self))
            guard declared.count == 1, let annotated = declared.first else {
                let what = declared.isEmpty
                    ? "declares nothing (an annotation must call HiveAnnotations.module or .service once)"
                    : "declares \(declared.count) things, at \(declared.map { "\($0.file):\($0.line)" }.joined(separator: " and "))"
                throw invalid(image, "entry \(index) of section \(name) \(what)")
            }
            found.append(FoundAnnotation(annotated: annotated, image: display))
        }
        return found
    }

    private static func invalid(_ image: LoadedImage, _ reason: String) -> HiveError {
        HiveError(.invalidAnnotation, "malformed annotation in \(image.displayName): \(reason)")
    }
}
#endif
