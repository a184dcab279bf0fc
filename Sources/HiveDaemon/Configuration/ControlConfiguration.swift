import HiveKit
/// Where the daemon's control socket lives and who may use it (the `control:` section).
///
/// ## Configuration keys
/// - `control.enabled`: `true` (default) or `false` (no socket at all).
/// - `control.socket`: the socket's path. Default: `$RUNTIME_DIRECTORY/control` when
///   systemd sets `RuntimeDirectory=` (`/run/hived/control` for the packaged unit); with
///   neither, no socket.
/// - `control.group`: a group whose members may use the socket besides root and the
///   daemon's own user; the socket file is given that group.
///
/// Read at start: a reload that changes them warns that they take effect at the next start.
public struct ControlConfiguration: Sendable, Hashable {
    /// Whether a socket is served at all.
    public var isEnabled: Bool
    /// The configured path, if any.
    public var socket: String?
    /// The configured group's name, if any.
    public var group: String?

    /// A control configuration; the defaults are those of an absent `control:` key.
    init(isEnabled: Bool = true, socket: String? = nil, group: String? = nil) {
        self.isEnabled = isEnabled
        self.socket = socket
        self.group = group
    }

    /// The socket's path: ``socket``, else `control` in the first directory of
    /// `runtimeDirectory` (systemd's `RUNTIME_DIRECTORY`); `nil` when disabled or neither is set.
    func socketPath(runtimeDirectory: String?) -> String? {
        guard isEnabled else { return nil }
        if let socket { return socket }
        guard let first = SystemdEnvironment.firstDirectory(in: runtimeDirectory) else { return nil }
        return first.hasSuffix("/") ? "\(first)control" : "\(first)/control"
    }
}
