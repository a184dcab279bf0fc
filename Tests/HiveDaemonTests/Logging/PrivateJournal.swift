import Foundation
import Glibc

/// A journal this test owns, at the very path libsystemd sends to
/// (`/run/systemd/journal/socket`), seen by one thread only.
///
/// ``capture(_:)`` runs its body on a new thread that leaves the process's mount namespace
/// (`unshare(CLONE_NEWNS)` applies to the calling thread alone), mounts a tmpfs over
/// `/run/systemd` there and binds a datagram socket at the journal's path. Whatever the
/// body sends with `sd_journal_sendv` lands in that socket; nothing on the machine, nor
/// any other thread, sees it. Needs `CAP_SYS_ADMIN` (root).
enum PrivateJournal {
    /// What stands at the journal's path.
    enum Listener {
        /// A datagram socket that receives the entries.
        case socket
        /// A regular file: sending there fails (`ECONNREFUSED`), as with a journald gone bad.
        case refusing
    }

    /// Whether this process may make a private journal (root); on CI it must.
    static var isPossible: Bool { geteuid() == 0 }
    /// Whether tests that need a private journal run: possible here, or required (`CI`).
    static var shouldRun: Bool { isPossible || !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty }

    /// Runs `body` with the journal's path taken by `listener`; returns the entries that
    /// reached it, each as its fields (`MESSAGE`, `PRIORITY`…), in order.
    static func capture(_ listener: Listener = .socket, _ body: @escaping @Sendable () -> Void) async throws -> [[String: String]] {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try captureOnThisThread(listener, body) })
            }
            thread.start()
        }
    }

    private static func captureOnThisThread(_ listener: Listener, _ body: () -> Void) throws -> [[String: String]] {
        try check(unshareMountNamespace(), "unshare(CLONE_NEWNS)")
        try check(mount(nil, "/", nil, UInt(MS_REC | MS_PRIVATE), nil), "mount --make-rprivate /")
        let run = access("/run/systemd", F_OK) == 0 ? "/run/systemd" : "/run"
        try check(mount("hived-test-journal", run, "tmpfs", 0, "mode=0755"), "mount tmpfs on \(run)")
        _ = mkdir("/run/systemd", 0o755)
        try check(mkdir("/run/systemd/journal", 0o755), "mkdir /run/systemd/journal")
        let path = "/run/systemd/journal/socket"
        guard case .socket = listener else {
            try check(creat(path, 0o644), "creat \(path)")
            body()
            return []
        }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try check(fd, "socket")
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try check(bound, "bind \(path)")
        body()
        var entries: [[String: String]] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { break }
            entries.append(try parse(buffer[..<count]))
        }
        return entries
    }

    /// Decodes journald's native protocol: `NAME=value\n`, or, for a value that may hold
    /// newlines, `NAME\n` followed by its length (64-bit little-endian), the value and `\n`.
    static func parse(_ bytes: ArraySlice<UInt8>) throws -> [String: String] {
        var fields: [String: String] = [:]
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard let newline = bytes[index...].firstIndex(of: 0x0A) else {
                throw JournalProtocolError("an unterminated field")
            }
            let line = bytes[index..<newline]
            if let equals = line.firstIndex(of: 0x3D) {
                fields[String(decoding: line[..<equals], as: UTF8.self)] =
                    String(decoding: line[(equals + 1)...], as: UTF8.self)
                index = newline + 1
                continue
            }
            let start = newline + 1 + 8
            guard start <= bytes.endIndex else { throw JournalProtocolError("a field without its length") }
            let length = bytes[(newline + 1)..<start].reversed().reduce(0) { $0 << 8 | Int($1) }
            guard start + length < bytes.endIndex, bytes[start + length] == 0x0A else {
                throw JournalProtocolError("a binary field of the wrong length")
            }
            fields[String(decoding: line, as: UTF8.self)] = String(decoding: bytes[start..<(start + length)], as: UTF8.self)
            index = start + length + 1
        }
        return fields
    }

    /// `unshare(CLONE_NEWNS)`, which Glibc's Swift module does not export (it needs
    /// `_GNU_SOURCE`): looked up with `dlsym`.
    private static func unshareMountNamespace() -> Int32 {
        typealias Unshare = @convention(c) (Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "unshare") else {
            errno = ENOSYS
            return -1
        }
        let cloneNewNS: Int32 = 0x0002_0000
        return unsafeBitCast(symbol, to: Unshare.self)(cloneNewNS)
    }

    private static func check(_ result: Int32, _ what: String) throws {
        guard result >= 0 else { throw JournalProtocolError("\(what) failed: \(String(cString: strerror(errno)))") }
    }
}

/// A private journal that could not be set up, or an entry it could not decode.
struct JournalProtocolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
