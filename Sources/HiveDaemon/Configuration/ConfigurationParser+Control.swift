import HiveKit
extension ConfigurationParser {
    /// `control: {socket: /run/hived/control, group: operators, enabled: true}`.
    func control(_ node: ConfigNode) throws(HiveError) -> ControlConfiguration {
        let map = try node.map(keys: ["enabled", "socket", "group"], of: "a map with enabled, socket and group")
        var control = ControlConfiguration()
        if let enabled = map["enabled"] { control.isEnabled = try enabled.bool() }
        if let socket = map["socket"] {
            let path = try socket.text(expected: "a socket path")
            guard path.hasPrefix("/") else { throw socket.error("the control socket needs an absolute path, not \(quoted: path)") }
            // sockaddr_un.sun_path holds 108 bytes with the terminating NUL.
            guard path.utf8.count < 108 else {
                throw socket.error("the control socket's path is \(path.utf8.count) bytes long; at most 107 fit a Unix socket address")
            }
            control.socket = path
        }
        if let group = map["group"] {
            let name = try group.name()
            guard ControlAccess.groupID(named: name) != nil else {
                throw group.error("no group named \(quoted: name) on this system")
            }
            control.group = name
        }
        return control
    }
}
