#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The listening control socket: created at a path with mode 0660 (and the control
/// group), a stale socket left by a crash replaced, and the file removed when the
/// process exits.
enum ControlSocketFile {
    /// The file this process created, identified by device and inode so that exit never
    /// removes a successor's socket.
    private static let created = Mutex<(path: String, device: UInt64, inode: UInt64)?>(nil)

    /// Binds and listens on `path`; returns the listening descriptor (non-blocking,
    /// close-on-exec). Registers the file for removal at `exit`.
    ///
    /// A socket file already at `path` is replaced when nothing accepts connections on
    /// it (a crashed daemon's); a live one, or any other kind of file, is an error.
    ///
    /// - Throws: ``ControlSocketError`` naming the path, the step and the errno.
    static func listen(at path: String, groupID: UInt32?) throws(ControlSocketError) -> Int32 {
        guard var address = UnixAddress(path) else { throw ControlSocketError(path, "path too long", errno: ENAMETOOLONG) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ControlSocketError(path, "socket", errno: errno) }
        do throws(ControlSocketError) {
            if address.bind(descriptor) != 0 {
                guard errno == EADDRINUSE else { throw ControlSocketError(path, "bind", errno: errno) }
                try removeStale(path, address: &address)
                guard address.bind(descriptor) == 0 else { throw ControlSocketError(path, "bind", errno: errno) }
            }
            guard chmod(path, 0o660) == 0 else { throw ControlSocketError(path, "chmod", errno: errno) }
            var status = stat()
            guard lstat(path, &status) == 0 else { throw ControlSocketError(path, "stat", errno: errno) }
            // The file has the daemon's group already when control.group is that group (the
            // packaged unit's `hived`, whose system-call filter refuses chown): no chown then.
            if let groupID, status.st_gid != groupID, chown(path, UInt32.max, groupID) != 0 {
                throw ControlSocketError(path, "chown to group \(groupID)", errno: errno)
            }
            created.withLock { $0 = (path, UInt64(status.st_dev), UInt64(status.st_ino)) }
            atexit { ControlSocketFile.removeCreated() }
            guard Glibc.listen(descriptor, 128) == 0 else { throw ControlSocketError(path, "listen", errno: errno) }
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// Removes the socket file this process created, if it is still the same file.
    static func removeCreated() {
        guard let (path, device, inode) = created.withLock({ value in defer { value = nil }; return value }) else { return }
        var status = stat()
        guard lstat(path, &status) == 0, UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode else { return }
        unlink(path)
    }

    /// Unlinks a socket file at `path` that nobody serves.
    private static func removeStale(_ path: String, address: inout UnixAddress) throws(ControlSocketError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw ControlSocketError(path, "stat", errno: errno) }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw ControlSocketError(path, "exists and is not a socket; remove it or choose another control.socket", errno: EEXIST)
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw ControlSocketError(path, "socket", errno: errno) }
        defer { close(probe) }
        if address.connect(probe) == 0 {
            throw ControlSocketError(path, "another process serves this socket", errno: EADDRINUSE)
        }
        guard errno == ECONNREFUSED else { throw ControlSocketError(path, "connect to the existing socket", errno: errno) }
        guard unlink(path) == 0 || errno == ENOENT else { throw ControlSocketError(path, "unlink the stale socket", errno: errno) }
    }
}

/// Why the control socket could not be created: `PATH: step: strerror`.
struct ControlSocketError: Error, Sendable, CustomStringConvertible {
    /// The socket's path.
    let path: String
    /// What failed (`bind`, `chmod`…).
    let step: String
    /// The errno.
    let errno: Int32

    init(_ path: String, _ step: String, errno: Int32) {
        self.path = path
        self.step = step
        self.errno = errno
    }

    /// `/run/hived/control: bind: Permission denied`.
    var description: String {
        "\(path): \(step): \(String(cString: strerror(errno)))"
    }
}
