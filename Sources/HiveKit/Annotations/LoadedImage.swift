#if canImport(Glibc)
import Glibc

/// `dl_iterate_phdr(3)`: Glibc declares it only with `_GNU_SOURCE`, which Swift's Glibc
/// module is built without.
@_extern(c, "dl_iterate_phdr")
private func dlIteratePhdr(
    _ callback: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32,
    _ data: UnsafeMutableRawPointer?
) -> Int32

/// `getauxval(3)`, which Swift's Glibc module does not declare (`<sys/auxv.h>`).
@_extern(c, "getauxval")
private func getAuxiliaryValue(_ type: UInt) -> UInt

/// An executable or shared object mapped into the process, as the dynamic loader
/// reports it: where it is loaded, its file, and its program headers as mapped.
///
/// `@unchecked Sendable`: `segments` points at the image's own program headers, which
/// the loader maps read-only with the image; a value is used only during the scan that
/// made it, while the image stays loaded (the scan runs with no `dlclose` of its own).
struct LoadedImage: @unchecked Sendable {
    /// The load bias: what to add to the file's addresses.
    let base: UInt
    /// Its path; `/proc/self/exe` for the executable (read only when HiveKit is not linked
    /// into it).
    let path: String
    /// Whether this is the executable itself.
    let isExecutable: Bool
    /// The program headers in memory, to check the file against and to bound addresses.
    /// Not copied into an array: a new array type costs start-up a metadata instantiation.
    let segments: UnsafeBufferPointer<Elf64_Phdr>

    /// Every loaded image with a file: the executable first, then the shared objects in
    /// load order. The vDSO, which has no file, is left out. Wraps `dl_iterate_phdr(3)`.
    static func all() -> [LoadedImage] {
        final class Found { var images: [LoadedImage] = [] }
        let found = Found()
        _ = withExtendedLifetime(found) {
            dlIteratePhdr({ info, _, data in
                // struct dl_phdr_info (LP64): dlpi_addr, dlpi_name, dlpi_phdr, dlpi_phnum.
                guard let info, let data else { return 0 }
                let found = Unmanaged<Found>.fromOpaque(data).takeUnretainedValue()
                let base = info.load(as: UInt.self)
                let name = info.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
                let headers = info.load(fromByteOffset: 16, as: UnsafePointer<Elf64_Phdr>?.self)
                let count = Int(info.load(fromByteOffset: 24, as: UInt16.self))
                let isExecutable = found.images.isEmpty && name.isEmpty
                // Only the executable has no path; a name without '/' is the vDSO.
                guard isExecutable || name.contains("/"), let headers else { return 0 }
                found.images.append(
                    LoadedImage(
                        base: base, path: isExecutable ? "/proc/self/exe" : name, isExecutable: isExecutable,
                        segments: UnsafeBufferPointer(start: headers, count: count)))
                return 0
            }, Unmanaged.passUnretained(found).toOpaque())
        }
        return found.images
    }

    /// The image's name for messages: the object's path, or the executable's real path,
    /// resolved from the path it was started by (`AT_EXECFN`) without `/proc`.
    var displayName: String {
        guard isExecutable else { return path }
        guard let started = UnsafePointer<CChar>(bitPattern: getAuxiliaryValue(UInt(AT_EXECFN))) else {
            return "the executable"
        }
        guard let resolved = realpath(started, nil) else { return String(cString: started) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether the image can hold Swift code that calls HiveKit: the executable (which may
    /// carry the Swift runtime itself, linked statically), or a shared object that needs
    /// `libswiftCore.so`. C libraries (libc, libsystemd…) are not worth opening.
    var mayHoldSwift: Bool {
        isExecutable || needs("libswiftCore.so")
    }

    /// Whether the image's dynamic section, read in memory, has `DT_NEEDED` `library`.
    private func needs(_ library: String) -> Bool {
        guard let dynamic = segments.first(where: { $0.p_type == UInt32(PT_DYNAMIC) }),
            let start = UnsafeRawPointer(bitPattern: base &+ UInt(dynamic.p_vaddr))
        else { return false }
        let dynamicEntries = UnsafeBufferPointer(
            start: start.assumingMemoryBound(to: Elf64_Dyn.self),
            count: Int(dynamic.p_memsz) / MemoryLayout<Elf64_Dyn>.stride)
        var table: UInt = 0
        var size: UInt = 0
        for entry in dynamicEntries {
            if entry.d_tag == Int64(DT_NULL) { break }
            if entry.d_tag == Int64(DT_STRTAB) { table = UInt(entry.d_un.d_ptr) }
            if entry.d_tag == Int64(DT_STRSZ) { size = UInt(entry.d_un.d_val) }
        }
        // glibc relocates DT_STRTAB in place; other loaders may leave it file-relative.
        if !contains(table, length: size) { table = base &+ table }
        guard table != 0, contains(table, length: size), let strings = UnsafeRawPointer(bitPattern: table) else {
            return false
        }
        return library.withCString { wanted in
            let length = UInt(strlen(wanted)) + 1
            for entry in dynamicEntries {
                if entry.d_tag == Int64(DT_NULL) { break }
                if entry.d_tag == Int64(DT_NEEDED), UInt(entry.d_un.d_val) + length <= size,
                    memcmp(strings + Int(entry.d_un.d_val), wanted, Int(length)) == 0
                {
                    return true
                }
            }
            return false
        }
    }

    /// Whether `address` (in memory) is inside a loaded segment with `flags`, for
    /// `length` bytes.
    func contains(_ address: UInt, length: UInt = 1, flags: UInt32 = 0) -> Bool {
        segments.contains { segment in
            guard segment.p_type == UInt32(PT_LOAD), segment.p_flags & flags == flags else { return false }
            let start = base &+ UInt(segment.p_vaddr)
            return address >= start && address &+ length <= start &+ UInt(segment.p_memsz)
        }
    }
}
#endif
