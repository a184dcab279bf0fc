#if canImport(Glibc)
import Glibc

/// Finds a named section of a loaded image by reading the section headers from its file
/// (the loader maps segments, not section headers), after checking that the file is the
/// image that is mapped: its program headers must be the ones in memory. Used for the
/// images HiveKit is not linked into (shared objects); HiveKit's own image is read from
/// memory (``AnnotationSection``).
struct ELFSectionReader {
    /// Where a section is mapped.
    struct Section {
        /// Its address in memory.
        let address: UInt
        let size: UInt
    }

    /// Why an image could not be read.
    struct Failure: Error {
        let reason: String
    }

    let image: LoadedImage

    /// The section named `name` as mapped, or `nil` when the image has none.
    ///
    /// - Throws: ``Failure`` when the file cannot be read, is not a 64-bit ELF file, is
    ///   not the image that is mapped, or places the section outside its segments.
    func section(named name: String) throws(Failure) -> Section? {
        let fd = open(image.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(reason: "cannot open \(image.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let header: Elf64_Ehdr = try read(fd, at: 0)
        guard header.e_ident.0 == 0x7F, header.e_ident.1 == UInt8(ascii: "E"), header.e_ident.2 == UInt8(ascii: "L"),
            header.e_ident.3 == UInt8(ascii: "F"), header.e_ident.4 == UInt8(ELFCLASS64),
            Int(header.e_phentsize) == MemoryLayout<Elf64_Phdr>.size,
            Int(header.e_shentsize) == MemoryLayout<Elf64_Shdr>.size || header.e_shnum == 0
        else { throw Failure(reason: "not a 64-bit ELF file") }
        // Raw buffers rather than arrays of ELF structures: each new array type would cost
        // start-up a metadata instantiation.
        let segments = try read(fd, at: header.e_phoff, count: Int(header.e_phnum), of: Elf64_Phdr.self)
        defer { segments.deallocate() }
        guard Self.same(UnsafeBufferPointer(segments), image.segments) else {
            throw Failure(reason: "the file on disk is not the image that is loaded (replaced since?)")
        }
        guard header.e_shoff != 0, header.e_shnum != 0 else { return nil }
        let sections = try read(fd, at: header.e_shoff, count: Int(header.e_shnum), of: Elf64_Shdr.self)
        defer { sections.deallocate() }
        guard Int(header.e_shstrndx) < sections.count else { throw Failure(reason: "no section name table") }
        let table = sections[Int(header.e_shstrndx)]
        let names = try read(fd, at: table.sh_offset, count: Int(table.sh_size), of: UInt8.self)
        defer { names.deallocate() }
        let wanted = Array(name.utf8CString).map(UInt8.init(bitPattern:))
        for section in sections where Self.name(at: Int(section.sh_name), in: UnsafeBufferPointer(names), is: wanted) {
            let address = image.base &+ UInt(section.sh_addr)
            guard section.sh_flags & UInt64(SHF_ALLOC) != 0, image.contains(address, length: UInt(section.sh_size)) else {
                throw Failure(reason: "section \(name) is not inside a loaded segment")
            }
            return Section(address: address, size: UInt(section.sh_size))
        }
        return nil
    }

    private static func name(at offset: Int, in names: UnsafeBufferPointer<UInt8>, is wanted: [UInt8]) -> Bool {
        offset >= 0 && offset + wanted.count <= names.count
            && names[offset..<(offset + wanted.count)].elementsEqual(wanted)
    }

    private static func same(_ lhs: UnsafeBufferPointer<Elf64_Phdr>, _ rhs: UnsafeBufferPointer<Elf64_Phdr>) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { a, b in
            a.p_type == b.p_type && a.p_flags == b.p_flags && a.p_offset == b.p_offset && a.p_vaddr == b.p_vaddr
                && a.p_filesz == b.p_filesz && a.p_memsz == b.p_memsz
        }
    }

    private func read<Value>(_ fd: Int32, at offset: UInt64) throws(Failure) -> Value {
        let value = try read(fd, at: offset, count: 1, of: Value.self)
        defer { value.deallocate() }
        return value[0]
    }

    /// `count` values of `Value` from `offset`, read whole with `pread(2)` into a buffer
    /// the caller deallocates.
    private func read<Value>(
        _ fd: Int32, at offset: UInt64, count: Int, of type: Value.Type
    ) throws(Failure) -> UnsafeMutableBufferPointer<Value> {
        guard count >= 0, MemoryLayout<Value>.stride * count < 64 << 20 else {
            throw Failure(reason: "implausible header sizes")
        }
        let values = UnsafeMutableBufferPointer<Value>.allocate(capacity: count)
        let bytes = UnsafeMutableRawBufferPointer(values)
        var done = 0
        while done < bytes.count {
            let result = pread(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                values.deallocate()
                throw Failure(
                    reason: result == 0 ? "truncated file" : "cannot read \(image.path): \(String(cString: strerror(errno)))")
            }
            done += result
        }
        return values
    }
}
#endif
