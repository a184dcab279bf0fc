import CHiveKit

/// A section that holds annotations: its name, and where it lies in the memory of the
/// image HiveKit is linked into.
///
/// That image (the executable, when HiveKit is linked into it as SwiftPM does) is read
/// from memory only: the linker marks the section's bounds with `__start_NAME` and
/// `__stop_NAME`, which HiveKit refers to (CHiveKit). Other images, which HiveKit's
/// references do not reach, are read from their files (``ELFSectionReader``).
struct AnnotationSection: Sendable {
    /// The section's name, a C identifier (the linker marks the bounds of no other).
    let name: String
    /// Where it starts in the image HiveKit is linked into; 0 when that image has none.
    let start: UInt
    /// Where it ends there.
    let stop: UInt

    /// A section named `name`, from `start` to `stop` in the image HiveKit is linked into
    /// (none there when both are `nil` or equal).
    init(name: String, start: UnsafeRawPointer? = nil, stop: UnsafeRawPointer? = nil) {
        self.name = name
        self.start = UInt(bitPattern: start)
        self.stop = UInt(bitPattern: stop)
    }

    /// `hivekit_annotations`, where annotations are declared.
    static var annotations: AnnotationSection {
        AnnotationSection(
            name: HiveAnnotations.section, start: hivekit_annotations_start(), stop: hivekit_annotations_stop())
    }

    /// An address in HiveKit's own code, which tells the image HiveKit is linked into.
    static var hiveKitCode: UInt {
        unsafeBitCast(hivekit_annotations_start as @convention(c) () -> UnsafeRawPointer?, to: UInt.self)
    }

    #if canImport(Glibc)
    /// The section as `image`, the image HiveKit is linked into, holds it in memory;
    /// `nil` when it has none.
    ///
    /// - Throws: ``ELFSectionReader/Failure`` when the bounds are not inside a loaded
    ///   segment of the image.
    func inMemory(of image: LoadedImage) throws(ELFSectionReader.Failure) -> ELFSectionReader.Section? {
        guard start != 0, stop > start else { return nil }
        guard image.contains(start, length: stop - start) else {
            throw ELFSectionReader.Failure(reason: "section \(name) is not inside a loaded segment")
        }
        return ELFSectionReader.Section(address: start, size: stop - start)
    }
    #endif
}
