import HiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a configuration file whole, as UTF-8 text, in a way no file can hang or exhaust.
///
/// - Only regular files are read: a FIFO, a socket or a device is refused, and opening
///   never waits (`O_NONBLOCK`: a FIFO without a writer would block `open` itself).
/// - At most ``maximumSize`` bytes.
/// - A stable snapshot: the file's inode, size and modification time are the same before
///   and after the read, and the path still names that file; otherwise the read is tried
///   again (``attempts`` times in all), then refused with "file changed while reading";
///   a file whose size differs from what reading it gives although nothing about it
///   changed (one of `/proc` or `/sys`, made as it is read) is refused saying so.
///   Editors and tools write in place: replace the file atomically (write a temporary
///   file, then rename it) and a reload never sees half of it.
enum ConfigurationFile {
    /// The largest file accepted (1 MiB); a configuration is a few kilobytes.
    static let maximumSize = 1 << 20
    /// How many times a file that changes while it is read is read again, in all.
    static let attempts = 3

    /// The text of the file at `path`.
    ///
    /// - Throws: ``/HiveKit/HiveError`` (`invalidConfiguration`) saying the file cannot be read
    ///   and why (`No such file or directory`, `not a regular file (a FIFO)`, `larger than
    ///   1 MiB`, `file changed while reading`, a `/proc` file…), or that it is not UTF-8.
    static func contents(of path: String) throws(HiveError) -> String {
        try contents(of: path, afterReading: {})
    }

    /// ``contents(of:)``, calling `afterReading` between reading the bytes and checking
    /// that the file did not change (a test changes the file there).
    static func contents(of path: String, afterReading: () -> Void) throws(HiveError) -> String {
        func failure(_ reason: String) -> HiveError {
            HiveError(.invalidConfiguration, "\(path.abbreviated(to: 256)): cannot read configuration file: \(reason)")
        }
        var last = Snapshot.changed
        for attempt in 1...attempts {
            last = try snapshot(of: path, afterReading: afterReading, failure: failure)
            if case .read(let bytes) = last {
                guard let text = String(validating: bytes, as: UTF8.self) else { throw failure("not valid UTF-8") }
                return text
            }
            if attempt < attempts { usleep(20_000) }  // let the writer finish
        }
        if case .sizeMismatch(let size, let count) = last {
            throw failure(
                "its size says \(size) bytes but reading it gives \(count) on every try, though nothing about it changed: "
                    + "the kernel makes its contents as it is read (a file of /proc or /sys), "
                    + "so it is not a configuration file; copy it to a regular file")
        }
        throw failure(
            "file changed while reading (\(attempts) tries); replace it atomically: write a temporary file, then rename it")
    }

    /// What one read of the file found.
    private enum Snapshot {
        /// The file's bytes, read while nothing about it changed.
        case read([UInt8])
        /// The file's inode, size or modification time changed while it was read, or the
        /// path names another file now.
        case changed
        /// Nothing changed, yet the read gave another number of bytes than the file's
        /// size: a file the kernel generates when read (`/proc`, `/sys`).
        case sizeMismatch(size: Int, read: Int)
    }

    /// One read of the file, and whether it changed meanwhile.
    private static func snapshot(
        of path: String, afterReading: () -> Void, failure: (String) -> HiveError
    ) throws(HiveError) -> Snapshot {
        var before = stat()
        guard stat(path, &before) == 0 else { throw failure(describe(errno)) }
        try requireRegular(before, failure: failure)
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw failure(describe(errno)) }
        defer { close(descriptor) }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0 else { throw failure(describe(errno)) }
        try requireRegular(opened, failure: failure)
        guard Int(opened.st_size) <= maximumSize else { throw failure("larger than \(maximumSize >> 20) MiB") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(opened.st_size))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(describe(errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= maximumSize else { throw failure("larger than \(maximumSize >> 20) MiB") }
        }
        afterReading()
        var after = stat()
        var named = stat()
        guard fstat(descriptor, &after) == 0, stat(path, &named) == 0 else { return .changed }
        let unchanged =
            same(opened, after) && same(before, opened) && named.st_ino == opened.st_ino && named.st_dev == opened.st_dev
        guard unchanged else { return .changed }
        guard Int(after.st_size) == bytes.count else { return .sizeMismatch(size: Int(after.st_size), read: bytes.count) }
        return .read(bytes)
    }

    /// Whether two `stat`s show the same file with the same size and modification time.
    private static func same(_ a: stat, _ b: stat) -> Bool {
        a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size
            && a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec
    }

    private static func requireRegular(_ info: stat, failure: (String) -> HiveError) throws(HiveError) {
        let type = info.st_mode & S_IFMT
        guard type != S_IFREG else { return }
        let kind =
            switch type {
            case S_IFIFO: "a FIFO"
            case S_IFSOCK: "a socket"
            case S_IFCHR: "a character device"
            case S_IFBLK: "a block device"
            case S_IFDIR: "a directory"
            default: "not a file"
            }
        throw failure("not a regular file (\(kind))")
    }

    /// `strerror(code)` as a Swift string, saying what ran out when it is descriptors.
    private static func describe(_ code: Int32) -> String {
        DescriptorShortage.describe(code)
    }
}
