#if canImport(Glibc)
import Glibc
#endif

/// Who may use the control socket: root, the daemon's own user, and members of
/// `control.group` (by primary or supplementary group, as the kernel reported them
/// at `connect`). Everyone else is refused with `PermissionDenied`.
struct ControlAccess: Sendable, Equatable {
    /// The daemon's effective user id.
    let ownUID: UInt32
    /// The group whose members are served, if configured.
    let groupID: UInt32?

    /// Whether `peer` is served.
    func allows(_ peer: PeerCredentials) -> Bool {
        if peer.uid == 0 || peer.uid == ownUID { return true }
        guard let groupID else { return false }
        return peer.gid == groupID || peer.groups.contains(groupID)
    }

    /// The id of the group named `name` (or written as a number). Wraps `getgrnam_r`.
    static func groupID(named name: String) -> UInt32? {
        if let number = UInt32(name) { return number }
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        while true {
            let status = getgrnam_r(name, &entry, &buffer, buffer.count, &result)
            if status == ERANGE, buffer.count < 1 << 20 {
                buffer = [CChar](repeating: 0, count: buffer.count * 4)
                continue
            }
            guard status == 0, let result else { return nil }
            return result.pointee.gr_gid
        }
    }
}
