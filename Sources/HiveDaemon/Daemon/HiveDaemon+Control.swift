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

    /// Reloads (``reload(_:)``), records it, and answers `callers`, the control `Reload`
    /// calls that asked for this reload or joined it while it waited.
    func reload(_ hive: Hive, answering callers: [ControlRequest]) async {
        let outcome = await reload(hive)
        HiveMetrics.shared.recordReload(outcome)
        guard !callers.isEmpty else { return }
        let reply = Self.reply(to: outcome, path: options.configurationPath)
        for call in callers { call.complete(reply) }
    }

    /// Runs a control-socket call on the event loop and sends its reply.
    func handle(_ request: ControlRequest, hive: Hive) async {
        switch request.action {
        case .reload:
            await reload(hive, answering: [request])
        case .send(let event):
            do {
                let report = try await hive.send(event)
                let failures = report.failures.map { failure in
                    DaemonAPI.Failure(
                        module: failure.module ?? "", event: failure.event?.description ?? "\(event)",
                        message: failure.message)
                }
                request.complete(VarlinkCoding.reply(DaemonAPI.Delivery(delivered: report.delivered, failures: failures)))
            } catch {
                request.complete(VarlinkError.eventRefused(event: "\(event)", message: error.message).encoded)
            }
        }
    }

    /// `Reload`'s reply: what changed, or `ConfigurationInvalid` / `ReloadFailed`.
    static func reply(to outcome: ReloadOutcome, path: String?) -> [UInt8] {
        switch outcome {
        case .applied(let summary):
            // Applied: hooks that threw after the commit (a module's reload, say) were logged
            // and do not undo it.
            return VarlinkCoding.reply(DaemonAPI.ReloadResult(
                added: summary.added, removed: summary.removed, changed: summary.changed, reloaded: summary.reloaded))
        case .invalid(let error):
            // The message without the place the error's own text starts with: `FILE:LINE: `,
            // or `FILE: ` when the file could not be read at all.
            let file = error.location?.path ?? path ?? "<embedded>"
            var message = error.description
            let place = error.location.map { "\($0): " } ?? "\(file): "
            if message.hasPrefix(place) { message.removeFirst(place.count) }
            return VarlinkError.configurationInvalid(file: file, line: error.location?.line, message: message).encoded
        case .failed(let error):
            return VarlinkError.reloadFailed(
                module: error.module ?? "", event: error.event?.description ?? "reload", message: error.message).encoded
        case .skipped:
            return ControlRequest.Action.reload.refused(stoppingRefusal).encoded
        }
    }
}
