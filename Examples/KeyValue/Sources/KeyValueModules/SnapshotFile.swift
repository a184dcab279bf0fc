#if canImport(Glibc)
import Glibc
#endif

/// A snapshot that cannot be read or written.
struct SnapshotError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "snapshot \(path): \(reason)" }
}

/// Reads and atomically replaces snapshot files, with plain system calls.
enum SnapshotFile {
    /// The file's text; `nil` when it does not exist.
    static func read(_ path: String) throws(SnapshotError) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw SnapshotError(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw SnapshotError(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `text` to `PATH.tmp`, syncs it, and renames it over `path`.
    static func replace(_ path: String, with text: String) throws(SnapshotError) {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SnapshotError(path: path, reason: String(cString: strerror(errno))) }
        var text = text
        let written = text.withUTF8 { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        let synced = written && fsync(descriptor) == 0
        var reason = String(cString: strerror(errno))
        close(descriptor)
        if synced {
            guard rename(temporary, path) != 0 else { return }
            reason = String(cString: strerror(errno))
        }
        unlink(temporary)
        throw SnapshotError(path: path, reason: reason)
    }
}
