#if canImport(Glibc)
import Glibc
#endif
import HiveKit

/// `ctl`: the operator's client of a running daemon's control socket (`hived ctl …`).
///
/// Prints human-readable text (or, with `json`, every raw reply, one per line) and
/// returns the exit status: 0, 1 when the daemon reported an error (or no route handled
/// an opened URL), 66 when no route matches a URL or there is no such action, 67 when the
/// route or action is not exported, 69 when the socket cannot be reached or turned the
/// connection away, 70 when the route's or action's handler failed, 77 when access is
/// denied, 78 for a reload of an invalid file. A usage error (64) is the command line's,
/// before a ``ControlTool`` runs.
struct ControlTool: Sendable {
    /// What to ask.
    enum Command: Sendable {
        /// Phase, uptime and one line per module.
        case status
        /// Every (module, event) by time spent, slowest first.
        case blame
        /// Start-up calls and the critical path.
        case profile
        /// Events delivered so far (per event kind), or with `follow` a live stream.
        case events(follow: Bool)
        /// Deliver `custom(name, parameters)`.
        case send(name: String, parameters: [String: String])
        /// Reload the configuration.
        case reload
        /// Set the log level.
        case logLevel(String)
        /// Registered routes, actions or services.
        case routes, actions, services
        /// Metrics in the Prometheus text format.
        case metrics
        /// Open a URL through the daemon's exported routes, with parameters.
        case open(url: String, parameters: [String: String])
        /// Perform an exported action of a target, with parameters.
        case perform(target: String, action: String, parameters: [String: String])
    }

    /// The daemon asked.
    let identity: DaemonIdentity
    /// The socket's path.
    let socket: String
    /// Print raw replies instead of text.
    let json: Bool
    /// The daemon's pid when systemd runs the tool for its unit (`MAINPID`, set for
    /// `ExecReload=`): `reload` falls back to `SIGHUP` when the socket is off.
    let mainPID: Int32?

    /// A tool for the socket at `socket`, else `control` in `runtimeDirectory` (systemd's
    /// `RUNTIME_DIRECTORY`, set for the unit's own commands such as `ExecReload=`), else
    /// `control` in the identity's runtime directory (`/run/NAME/control`).
    ///
    /// With `mainPID` (systemd's `MAINPID`, unparsed), a `reload` that finds no socket
    /// (`control: {enabled: false}`, or a `control.socket` elsewhere), or whose call the
    /// socket turns away (`Unavailable`: every client slot taken, or the daemon out of
    /// descriptors), sends `SIGHUP` to that process instead, so `systemctl reload` keeps
    /// working.
    init(identity: DaemonIdentity, socket: String?, json: Bool, runtimeDirectory: String?, mainPID: String? = nil) {
        self.identity = identity
        self.socket = socket
            ?? ControlConfiguration().socketPath(runtimeDirectory: runtimeDirectory)
            ?? identity.runtimeDirectory + "/control"
        self.json = json
        self.mainPID = mainPID.flatMap { Int32($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Runs `command`; returns the exit status.
    func run(_ command: Command) -> Int32 {
        do {
            let client = try ControlClient(path: socket, daemon: identity.name)
            if case .reload = command, let mainPID {
                // Under ExecReload=: a socket that turns the call away (every slot taken, or
                // the daemon out of descriptors) must not make `systemctl reload` fail.
                let reply = try client.call("\(DaemonInterface.name).Reload", DaemonAPI.Empty())
                if case .unavailable(let message)? = failure(of: reply)?.error {
                    return signalReload(mainPID, because: "\(socket): \(message)", turnedAway: true)
                }
                return try show(reply, DaemonAPI.ReloadResult.self, CtlText.reload)
            }
            return try run(command, client)
        } catch {
            if case .unreachable(let path, let code, _) = error, code == ENOENT || code == ECONNREFUSED,
                case .reload = command, let mainPID
            {
                return signalReload(mainPID, because: "\(path): \(String(cString: strerror(code)))")
            }
            printError(error.description)
            if case .unreachable(_, let code, _) = error, code == EACCES { return 77 }
            return 69
        }
    }

    /// `reload` without the socket, for systemd's `ExecReload=`: `SIGHUP` to the daemon,
    /// which reloads as ever; its outcome shows in `STATUS=` and the journal, not here.
    /// `turnedAway`: the socket is there but turned the call away, rather than off.
    private func signalReload(_ pid: Int32, because cause: String, turnedAway: Bool = false) -> Int32 {
        let why = turnedAway ? "the control socket turned the call away (\(cause))" : "the control socket is off (\(cause))"
        guard kill(pid, SIGHUP) == 0 else {
            printError("\(why), and SIGHUP to pid \(pid) failed: \(String(cString: strerror(errno)))")
            return 69
        }
        printError(
            "\(why): sent SIGHUP to pid \(pid) instead; the reload's outcome shows in `systemctl status` and the journal")
        return 0
    }

    private func run(_ command: Command, _ client: ControlClient) throws(ControlClientError) -> Int32 {
        let method = "\(DaemonInterface.name)."
        switch command {
        case .status:
            return try show(client.call(method + "GetStatus", DaemonAPI.Empty()), DaemonAPI.Status.self, CtlText.status)
        case .blame:
            return try show(client.call(method + "GetProfile", DaemonAPI.Empty()), DaemonAPI.Profile.self, CtlText.blame)
        case .profile:
            return try show(client.call(method + "GetProfile", DaemonAPI.Empty()), DaemonAPI.Profile.self, CtlText.profile)
        case .events(follow: false):
            return try show(client.call(method + "GetProfile", DaemonAPI.Empty()), DaemonAPI.Profile.self, CtlText.events)
        case .events(follow: true):
            try client.send(method + "Subscribe", DaemonAPI.Empty(), more: true)
            while true {
                let reply = try client.receive()
                let status = try show(reply, DaemonAPI.Notice.self, CtlText.notice)
                // Each line as it happens, into a pipe or file too (stdio would hold it back).
                fflush(nil)
                guard status == 0, reply.continues else { return status }
            }
        case .send(let name, let parameters):
            let reply = try client.call(
                method + "SendEvent", DaemonAPI.SendEventParameters(name: name, parameters: parameters))
            return try show(reply, DaemonAPI.Delivery.self) { CtlText.delivery($0, name: name) }
        case .reload:
            return try show(client.call(method + "Reload", DaemonAPI.Empty()), DaemonAPI.ReloadResult.self, CtlText.reload)
        case .logLevel(let level):
            let reply = try client.call(method + "SetLogLevel", DaemonAPI.LogLevel(level: level))
            return try show(reply, DaemonAPI.Empty.self) { _ in "log level: \(level)" }
        case .routes:
            return try show(client.call(method + "ListRoutes", DaemonAPI.Empty()), DaemonAPI.Routes.self, CtlText.routes)
        case .actions:
            return try show(client.call(method + "ListActions", DaemonAPI.Empty()), DaemonAPI.Actions.self, CtlText.actions)
        case .services:
            return try show(client.call(method + "ListServices", DaemonAPI.Empty()), DaemonAPI.Services.self, CtlText.services)
        case .metrics:
            let reply = try client.call(method + "GetMetrics", DaemonAPI.Empty())
            return try show(reply, DaemonAPI.Metrics.self) { String($0.text.dropLast($0.text.hasSuffix("\n") ? 1 : 0)) }
        case .open(let url, let parameters):
            let reply = try client.call(method + "OpenURL", DaemonAPI.OpenURLParameters(url: url, parameters: parameters))
            let status = try show(reply, DaemonAPI.OpenURLResult.self) { CtlText.opened($0, url: url) }
            guard status == 0, reply.error == nil else { return status }
            guard try reply.parameters(DaemonAPI.OpenURLResult.self, path: socket).handled else {
                if !json { printError("\(url): not handled (every matching route declined)") }
                return 1
            }
            return 0
        case .perform(let target, let action, let parameters):
            let reply = try client.call(
                method + "PerformAction",
                DaemonAPI.PerformActionParameters(target: target, action: action, parameters: parameters))
            return try show(reply, DaemonAPI.PerformActionResult.self) { $0.result?.printed ?? "\(target).\(action): done" }
        }
    }

    /// Prints a reply: raw with `json`, else as `format` makes it; an error reply goes
    /// to stderr as text. Returns the exit status it stands for.
    private func show<Parameters: Decodable>(
        _ reply: ControlReply, _ type: Parameters.Type, _ format: (Parameters) -> String
    ) throws(ControlClientError) -> Int32 {
        if json { print(reply.text) }
        if let (name, error, parameters) = failure(of: reply) {
            if !json { printError(CtlText.error(error, name: name, parameters: parameters, path: socket)) }
            return switch error {
            case .configurationInvalid: 78
            case .permissionDenied: 77
            case .unavailable: 69
            case .notFound: 66
            case .notExported: 67
            case .callFailed: 70
            default: 1
            }
        }
        if !json {
            let text = format(try reply.parameters(type, path: socket))
            if !text.isEmpty { print(text) }
        }
        return 0
    }

    /// An error reply's name, its error as the interface defines it (`nil` for one it does
    /// not define, or parameters it cannot go without) and its parameters; `nil` for a
    /// reply that is no error.
    private func failure(
        of reply: ControlReply
    ) -> (name: String, error: VarlinkError?, parameters: VarlinkError.Parameters)? {
        guard let name = reply.error else { return nil }
        let parameters = (try? reply.parameters(VarlinkError.Parameters.self, path: socket)) ?? VarlinkError.Parameters()
        return (name, VarlinkError(name: name, parameters: parameters), parameters)
    }

    private func printError(_ text: String) {
        var line = text + "\n"
        line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
