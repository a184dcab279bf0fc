import HiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The device and inode of an open file: what `JOURNAL_STREAM=DEV:INODE` names, and what a
/// descriptor number stood for when it was noted (``SystemdEnvironment/UnreadDescriptor``).
///
/// A number can come to name another file; an identity cannot, so ``matches(descriptor:)``
/// tells whether a descriptor is still open on the same file. systemd sets
/// `JOURNAL_STREAM` when a service's stdout or stderr is connected to journald, and
/// children inherit the variable even when their stderr goes elsewhere: it means something
/// only if it still names this process's stderr.
struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
    /// `st_dev`.
    let device: UInt64
    /// `st_ino`.
    let inode: UInt64

    /// `DEV:INODE`, as in `JOURNAL_STREAM`.
    var description: String { "\(device):\(inode)" }

    /// Whether `descriptor` (stderr by default) is open on this file now. Calls `fstat(2)`.
    func matches(descriptor: Int32 = STDERR_FILENO) -> Bool {
        FileIdentity(descriptor: descriptor) == self
    }
}

extension FileIdentity {
    /// Parses `DEV:INODE` (two decimal numbers), as systemd writes `JOURNAL_STREAM`.
    /// Returns nil for anything else.
    init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else {
            return nil
        }
        self.init(device: device, inode: inode)
    }

    /// The identity of whatever `descriptor` is open on, from `fstat(2)`; nil if it is closed.
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
