import HiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The device and inode of the stream systemd connected to the journal, from
/// `JOURNAL_STREAM=DEV:INODE`.
///
/// systemd sets `JOURNAL_STREAM` when a service's stdout or stderr is connected to journald.
/// Children inherit the variable even when their stderr goes elsewhere, so it means
/// something only if it still names this process's stderr: ``matches(descriptor:)`` checks.
struct JournalStream: Sendable, Hashable, CustomStringConvertible {
    /// The `st_dev` of the journal stream.
    let device: UInt64
    /// The `st_ino` of the journal stream.
    let inode: UInt64

    /// Makes a stream identity from a device and an inode number.
    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

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

    /// Whether `descriptor` (stderr by default) is still this stream. Calls `fstat(2)`.
    func matches(descriptor: Int32 = STDERR_FILENO) -> Bool {
        JournalStream(descriptor: descriptor) == self
    }

    /// `DEV:INODE`, as in `JOURNAL_STREAM`.
    var description: String { "\(device):\(inode)" }
}
