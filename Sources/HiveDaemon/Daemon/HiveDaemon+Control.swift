#if canImport(Glibc)
import Glibc
#endif
import HiveKit

extension HiveDaemon {
    /// Creates the control socket (before `READY=1`) and starts serving it; `nil` when
    /// the configuration and environment name no socket.
    ///
    /// - Throws: ``ControlSocketError`` when the socket cannot be created.
    func startControl(_ configuration: ControlConfiguration, hive: Hive) throws(ControlSocketError) -> ControlServer? {
        guard let path = configuration.socketPath(runtimeDirectory: options.systemd.runtimeDirectory) else { return nil }
        let groupID = configuration.group.flatMap(ControlAccess.groupID(named:))
        if let group = configuration.group, groupID == nil {
            throw ControlSocketError(path, "control.group '\(group)'", errno: ENOENT)
        }
        let listener = try ControlSocketFile.listen(at: path, groupID: groupID)
        let access = ControlAccess(ownUID: geteuid(), groupID: groupID)
        let server = try ControlServer(
            path: path, listener: listener, access: access, service: DaemonControl(daemon: self, hive: hive),
            logger: logger)
        logger.debug("control socket at \(path)")
        return server
    }
}
