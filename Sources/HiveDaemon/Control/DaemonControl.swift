import FoundationEssentials
import HiveKit
import Logging

/// The `io.hivekit.Daemon` and `org.varlink.service` methods, answered for the control
/// socket's thread.
///
/// Reading methods (status, profile, listings, metrics) are answered at once from the
/// hive's own snapshots, so they work even while an event is stuck; `Reload` and
/// `SendEvent` go through the daemon's queue and are answered when done; `OpenURL` and
/// `PerformAction` run on tasks of their own, as modules' calls do, and are answered when
/// done or at the event budget's end.
final class DaemonControl: Sendable {
    /// How a call is answered.
    enum Answer {
        /// At once, with this reply.
        case reply([UInt8])
        /// At once, with this error.
        case error(VarlinkError)
        /// Later, through ``ControlServer/reply(_:to:)``.
        case later
        /// With a stream of replies (``ControlSubscription``), until the client hangs up.
        case stream
    }

    /// The longest custom event name `SendEvent` takes, in UTF-8 bytes.
    static let maximumEventName = 255
    /// The most parameters `SendEvent` takes.
    static let maximumEventParameters = 64
    /// The most bytes of parameters (keys and values, UTF-8) `SendEvent` takes.
    static let maximumEventParameterBytes = 16 << 10

    let daemon: HiveDaemon
    let hive: Hive
    let subscription: ControlSubscription

    init(daemon: HiveDaemon, hive: Hive) {
        self.daemon = daemon
        self.hive = hive
        self.subscription = ControlSubscription(hive: hive)
    }

    /// Answers `call`, made on connection `connection` of `server`.
    func answer(_ call: VarlinkCall, connection: UInt64, server: ControlServer) -> Answer {
        do {
            switch call.interface {
            case DaemonInterface.serviceName: return try answerService(call)
            case DaemonInterface.name: return try answerDaemon(call, connection: connection, server: server)
            default: return .error(.interfaceNotFound(call.interface))
            }
        } catch {
            return .error(error)
        }
    }

    private func answerService(_ call: VarlinkCall) throws(VarlinkError) -> Answer {
        switch call.name {
        case "GetInfo":
            _ = try call.parameters(DaemonAPI.Empty.self)
            return .reply(VarlinkCoding.reply(DaemonAPI.Info(
                vendor: "HiveKit", product: daemon.options.identity.name, version: daemon.options.identity.version,
                url: daemon.options.identity.url,
                interfaces: [DaemonInterface.serviceName, DaemonInterface.name])))
        case "GetInterfaceDescription":
            let interface = try call.parameters(DaemonAPI.InterfaceName.self).interface
            let description = switch interface {
            case DaemonInterface.name: DaemonInterface.description
            case DaemonInterface.serviceName: DaemonInterface.serviceDescription
            default: throw VarlinkError.interfaceNotFound(interface)
            }
            return .reply(VarlinkCoding.reply(DaemonAPI.InterfaceDescription(description: description)))
        default:
            throw .methodNotFound(call.method)
        }
    }

    /// The `io.hivekit.Daemon` methods that take no parameters.
    private static let takesNoParameters: Set = [
        "GetStatus", "GetProfile", "ListRoutes", "ListActions", "ListServices", "GetMetrics", "Subscribe", "Reload",
    ]

    private func answerDaemon(_ call: VarlinkCall, connection: UInt64, server: ControlServer) throws(VarlinkError) -> Answer {
        if Self.takesNoParameters.contains(call.name) { _ = try call.parameters(DaemonAPI.Empty.self) }
        switch call.name {
        case "GetStatus": return .reply(VarlinkCoding.reply(status()))
        case "GetProfile": return .reply(VarlinkCoding.reply(profile()))
        case "ListRoutes": return .reply(VarlinkCoding.reply(routes()))
        case "ListActions": return .reply(VarlinkCoding.reply(actions()))
        case "ListServices": return .reply(VarlinkCoding.reply(services()))
        case "SetLogLevel":
            let name = try call.parameters(DaemonAPI.LogLevel.self).level
            guard let level = HiveLogging.parseLevel(name) else { throw .invalidParameter("level") }
            HiveLogging.level = level
            daemon.logger.notice("log level set to \(level) through the control socket")
            return .reply(VarlinkCoding.reply(DaemonAPI.Empty()))
        case "GetMetrics":
            let text = HiveMetrics.shared.prometheusText(hive, control: server.statistics)
            return .reply(VarlinkCoding.reply(DaemonAPI.Metrics(text: text)))
        case "Subscribe":
            guard call.more else { throw .expectedMore }
            return .stream
        case "SendEvent":
            let parameters = try call.parameters(DaemonAPI.SendEventParameters.self)
            guard !parameters.name.isEmpty else { throw .invalidParameter("name") }
            try Self.checkLimits(parameters)
            let event = HiveEvent.custom(name: parameters.name, params: parameters.parameters ?? [:])
            return submit(connection: connection, server: server) { .event(event, from: .control($0)) }
        case "Reload":
            return submit(connection: connection, server: server) { .reload(answering: [$0]) }
        case "OpenURL", "PerformAction":
            return try answerCall(call, connection: connection, server: server)
        default:
            throw .methodNotFound(call.method)
        }
    }

    /// Refuses a `SendEvent` whose name or parameters are over their limits: what waits in
    /// the daemon's queue and what subscribers are sent stays bounded in bytes.
    private static func checkLimits(_ parameters: DaemonAPI.SendEventParameters) throws(VarlinkError) {
        let name = parameters.name.utf8.count
        guard name <= maximumEventName else {
            throw .limitExceeded(
                parameter: "name", limit: maximumEventName,
                message: "the event name is \(name) bytes; at most \(maximumEventName)")
        }
        let values = parameters.parameters ?? [:]
        guard values.count <= maximumEventParameters else {
            throw .limitExceeded(
                parameter: "parameters", limit: maximumEventParameters,
                message: "\(values.count) parameters; at most \(maximumEventParameters)")
        }
        let bytes = values.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        guard bytes <= maximumEventParameterBytes else {
            throw .limitExceeded(
                parameter: "parameters", limit: maximumEventParameterBytes,
                message: "the parameters are \(bytes) bytes (keys and values); at most \(maximumEventParameterBytes)")
        }
    }

    /// Hands the request `make` builds for this call's caller to the daemon's door; its
    /// reply (or refusal: the daemon is stopping, its queue is full) goes to `connection`
    /// later. A `Reload` joins a reload already waiting (and gets that reload's answer)
    /// rather than queueing another behind it.
    private func submit(
        connection: UInt64, server: ControlServer, _ make: (ControlCaller) -> DaemonRequest
    ) -> Answer {
        let caller = ControlCaller { [weak server] reply in server?.reply(reply, to: connection) }
        daemon.submit(.request(make(caller)))
        return .later
    }
}
