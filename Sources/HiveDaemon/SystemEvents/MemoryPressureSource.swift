import CLinux
import HiveKit
#if canImport(Glibc)
import Glibc
#endif

/// Where memory pressure is read from, following systemd's protocol
/// (systemd.io/MEMORY_PRESSURE): the path in `MEMORY_PRESSURE_WATCH` (with
/// `MEMORY_PRESSURE_WRITE`, base64, written to it first), else a PSI trigger armed on the
/// service's own cgroup `memory.pressure`, else on `/proc/pressure/memory`.
struct MemoryPressureSource: Sendable, Equatable {
    /// How the watched file signals pressure.
    enum Kind: Sendable, Equatable {
        /// A PSI file (procfs or cgroup2): `POLLPRI` once per triggered window.
        case psi
        /// A FIFO: `POLLIN`, whatever is written.
        case stream
        /// A Unix socket hived connects to: `POLLIN`; end of file ends the watch.
        case socket
    }

    /// The path watched.
    let path: String
    /// What to poll for.
    let kind: Kind
    /// Bytes written once before watching: the PSI trigger, or `MEMORY_PRESSURE_WRITE`.
    let trigger: [UInt8]

    /// A path to try, with the bytes to write to it first.
    struct Candidate: Sendable, Equatable {
        let path: String
        let trigger: [UInt8]
    }

    /// What the watch resolves to: candidates to try in order, or off.
    enum Plan: Sendable, Equatable {
        /// `MEMORY_PRESSURE_WATCH` is empty or `/dev/null`: systemd turned it off.
        case off
        /// `MEMORY_PRESSURE_WATCH` is set but unusable (relative, undecodable write).
        case invalid(String)
        /// Paths to try in order; `fromSystemd` when `MEMORY_PRESSURE_WATCH` named it.
        case candidates([Candidate], fromSystemd: Bool)
    }

    /// The plan for systemd's `MEMORY_PRESSURE_WATCH` and `MEMORY_PRESSURE_WRITE` and,
    /// when systemd names nothing, this process's cgroup (`cgroupPath`, as in
    /// `/proc/self/cgroup`'s `0::` line) with a `some threshold window` trigger.
    static func plan(
        watch: String?, write: String?, cgroupPath: String?, threshold: Duration, window: Duration
    ) -> Plan {
        if let watch {
            if watch.isEmpty || watch == "/dev/null" { return .off }
            guard watch.hasPrefix("/") else {
                return .invalid("MEMORY_PRESSURE_WATCH is not an absolute path: '\(watch)'")
            }
            var trigger: [UInt8] = []
            if let write, !write.isEmpty {
                guard let decoded = Base64.decode(write) else {
                    return .invalid("MEMORY_PRESSURE_WRITE is not base64: '\(write)'")
                }
                trigger = decoded
            }
            return .candidates([Candidate(path: watch, trigger: trigger)], fromSystemd: true)
        }
        let text = "some \(threshold.nanosecondsClamped / 1000) \(window.nanosecondsClamped / 1000)"
        let trigger = Array(text.utf8) + [0]
        var paths: [String] = []
        if let cgroupPath {
            let relative = cgroupPath == "/" ? "" : cgroupPath
            for root in ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"] where isCgroup2(root) {
                if !relative.isEmpty { paths.append(root + relative + "/memory.pressure") }
                break
            }
        }
        paths.append("/proc/pressure/memory")
        return .candidates(paths.map { Candidate(path: $0, trigger: trigger) }, fromSystemd: false)
    }

    /// This process's path in the unified cgroup hierarchy (`0::/system.slice/x.service`),
    /// or `nil`.
    static func ownCgroupPath() -> String? {
        let fd = Glibc.open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &bytes, bytes.count)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("0::") {
            return String(line.dropFirst(3))
        }
        return nil
    }

    /// Whether `path` is a cgroup2 mount. Wraps `statfs`.
    static func isCgroup2(_ path: String) -> Bool {
        var info = statfs()
        return statfs(path, &info) == 0 && UInt64(bitPattern: Int64(info.f_type)) == 0x6367_7270
    }
}

extension MemoryPressureSource {
    /// Opens a candidate's path as a pressure source and arms it with its trigger; returns
    /// the source and its open descriptor, or why not. Only what systemd's protocol names
    /// is taken: a PSI file (procfs or cgroup2), a FIFO or a Unix socket. A device (say
    /// `/dev/zero`, always readable) or a directory is refused, naming what it is.
    static func open(_ candidate: Candidate) -> Result<(MemoryPressureSource, Int32), OpenFailure> {
        let (path, trigger) = (candidate.path, candidate.trigger)
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(OpenFailure(path: path, errno: errno)) }
        let type = info.st_mode & S_IFMT
        let kind: Kind
        let fd: Int32
        switch type {
        case S_IFSOCK:
            kind = .socket
            fd = connectStream(path)
        case S_IFREG, S_IFIFO:
            // A FIFO is opened read-write so that it never reports end of file.
            let mode = type == S_IFREG && trigger.isEmpty ? O_RDONLY : O_RDWR
            fd = Glibc.open(path, mode | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            if type == S_IFREG {
                var fs = statfs()
                if fd >= 0, fstatfs(fd, &fs) == 0,
                    ![0x9fa0, 0x6367_7270].contains(UInt64(bitPattern: Int64(fs.f_type)))
                {
                    close(fd)
                    return .failure(OpenFailure(path: path, reason: "not a PSI file (procfs or cgroup2)"))
                }
                kind = .psi
            } else {
                kind = .stream
            }
        default:
            let what = switch type {
            case S_IFCHR: "a character device"
            case S_IFBLK: "a block device"
            case S_IFDIR: "a directory"
            default: "not a file"
            }
            return .failure(OpenFailure(path: path, reason: "neither a PSI file, a FIFO nor a socket (\(what))"))
        }
        guard fd >= 0 else { return .failure(OpenFailure(path: path, errno: errno)) }
        if !trigger.isEmpty {
            let written = trigger.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == trigger.count else {
                let code = written < 0 ? errno : EIO
                close(fd)
                return .failure(OpenFailure(path: path, errno: code, writing: true))
            }
            // A FIFO opened read-write would read back what was just written.
            if kind == .stream { drain(fd) }
        }
        return .success((MemoryPressureSource(path: path, kind: kind, trigger: trigger), fd))
    }

    /// Why a path could not be watched.
    struct OpenFailure: Error, Sendable, CustomStringConvertible {
        let path: String
        let reason: String

        init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        init(path: String, errno code: Int32, writing: Bool = false) {
            self.init(path: path, reason: (writing ? "arming it: " : "") + String(cString: strerror(code)))
        }

        var description: String { "\(path): \(reason)" }
    }

    /// A non-blocking stream socket connected to `path`, or -1.
    private static func connectStream(_ path: String) -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            errno = ENAMETOOLONG
            return -1
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        guard result == 0 || errno == EINPROGRESS else {
            let code = errno
            close(fd)
            errno = code
            return -1
        }
        return fd
    }

    /// Reads and discards what `fd` holds now, at most 64 KiB (a writer that never stops
    /// cannot hold the thread here); returns false at end of file.
    @discardableResult
    static func drain(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 512)
        for _ in 0..<128 {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 { continue }
            return count < 0
        }
        return true
    }
}
