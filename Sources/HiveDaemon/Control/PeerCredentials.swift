#if canImport(Glibc)
import Glibc
#endif

/// The process at the other end of a Unix socket, as the kernel saw it when it
/// connected (`SO_PEERCRED`, `SO_PEERGROUPS`): never what the client claims.
struct PeerCredentials: Sendable, Equatable, CustomStringConvertible {
    /// The peer's process id (in the daemon's PID namespace; 0 if unknown there).
    let pid: Int32
    /// Its effective user id.
    let uid: UInt32
    /// Its effective group id.
    let gid: UInt32
    /// Its supplementary groups.
    let groups: [UInt32]

    /// `uid 1000, pid 4242`.
    var description: String { "uid \(uid), pid \(pid)" }

    /// `struct ucred`, which Swift's Glibc module does not import.
    private struct UCred {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// `SO_PEERGROUPS` (Linux 4.13+), which Swift's Glibc module does not import.
    private static let peerGroupsOption: Int32 = 59

    /// The credentials of the peer connected to `socket`; `nil` if the kernel does not say.
    /// Wraps `getsockopt(SO_PEERCRED)` and `getsockopt(SO_PEERGROUPS)`.
    static func of(_ socket: Int32) -> PeerCredentials? {
        var credentials = UCred()
        var length = socklen_t(MemoryLayout<UCred>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        var groups = [UInt32](repeating: 0, count: 64)
        var size = socklen_t(groups.count * MemoryLayout<UInt32>.size)
        if getsockopt(socket, SOL_SOCKET, peerGroupsOption, &groups, &size) != 0 {
            if errno == ERANGE, size > 0 {
                groups = [UInt32](repeating: 0, count: Int(size) / MemoryLayout<UInt32>.size)
                if getsockopt(socket, SOL_SOCKET, peerGroupsOption, &groups, &size) != 0 { size = 0 }
            } else {
                size = 0
            }
        }
        return PeerCredentials(
            pid: credentials.pid, uid: credentials.uid, gid: credentials.gid,
            groups: Array(groups.prefix(Int(size) / MemoryLayout<UInt32>.size)))
    }
}
