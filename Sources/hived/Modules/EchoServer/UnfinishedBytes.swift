#if canImport(Glibc)
import Glibc
#endif

/// What a connection of the `echo-server` had not finished when the process stopped: output
/// the client had not taken yet, and input after the last complete line. Carried to the
/// next process in the descriptor store, as an unlinked file (`unfinished.INODE` beside the
/// connection's `connection.INODE`), so that a restart loses no byte of either.
///
/// The file holds the output's length (8 bytes, little-endian), the output, then the input.
struct UnfinishedBytes: Equatable {
    /// Bytes read and echoed, not yet written to the client.
    var output: [UInt8] = []
    /// Bytes read after the last newline: the start of a line.
    var input: [UInt8] = []

    var isEmpty: Bool { output.isEmpty && input.isEmpty }

    /// The store name of the bytes of the connection stored as `connection` (`connection.INODE`
    /// gives `unfinished.INODE`).
    static func storeName(forConnection connection: String) -> String {
        "unfinished." + connection.dropFirst("connection.".count)
    }

    /// The connection's store name for the bytes stored as `name`, or nil if `name` is not
    /// one of these.
    static func connectionName(for name: String) -> String? {
        name.hasPrefix("unfinished.") ? "connection." + name.dropFirst("unfinished.".count) : nil
    }

    /// The bytes in a file written by ``file()``, or nil when it cannot be read or is
    /// malformed. Reads from offset 0 (`pread`), whatever the file's position.
    init?(reading descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size >= 8 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        let length = bytes[..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard length >= 0, length <= bytes.count - 8 else { return nil }
        output = Array(bytes[8..<(8 + length)])
        input = Array(bytes[(8 + length)...])
    }

    init(output: [UInt8] = [], input: [UInt8] = []) {
        self.output = output
        self.input = input
    }

    /// A new unlinked file in `$TMPDIR` (else `/tmp`) holding the bytes, close-on-exec;
    /// the caller closes it.
    ///
    /// - Throws: ``SocketError`` naming the call that failed.
    func file() throws(SocketError) -> Int32 {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/hived-echo-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw SocketError("mkstemp", for: directory) }
        unlink(template)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let length = UInt64(output.count)
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: length >> (8 * UInt64($0))) } + output + input
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if count == 0 { errno = EIO }
                let error = SocketError("write", for: "a file in \(directory)")
                close(descriptor)
                throw error
            }
            done += count
        }
        return descriptor
    }
}
