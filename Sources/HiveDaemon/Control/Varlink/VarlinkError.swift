import FoundationEssentials

/// An error reply: the standard `org.varlink.service` errors and those of
/// `io.hivekit.Daemon`.
enum VarlinkError: Error, Sendable, Equatable {
    /// `org.varlink.service.InterfaceNotFound`.
    case interfaceNotFound(String)
    /// `org.varlink.service.MethodNotFound`.
    case methodNotFound(String)
    /// `org.varlink.service.InvalidParameter`.
    case invalidParameter(String)
    /// `org.varlink.service.ExpectedMore`: a streaming method called without `more`.
    case expectedMore
    /// `io.hivekit.Daemon.PermissionDenied`.
    case permissionDenied
    /// `io.hivekit.Daemon.ConfigurationInvalid`: a reload read a bad file; nothing changed.
    case configurationInvalid(file: String, line: Int?, message: String)
    /// `io.hivekit.Daemon.ReloadFailed`: a module failed while the new configuration was applied.
    case reloadFailed(module: String, event: String, message: String)
    /// `io.hivekit.Daemon.EventRefused`: the hive does not take that event (or call) now.
    case eventRefused(event: String, message: String)
    /// `io.hivekit.Daemon.LimitExceeded`: a parameter is over its limit; nothing was done.
    case limitExceeded(parameter: String, limit: Int, message: String)
    /// `io.hivekit.Daemon.Unavailable`: the connection is turned away before any call is
    /// read (every client slot taken, or no file descriptor left); nothing was done.
    case unavailable(message: String)
    /// `io.hivekit.Daemon.NotFound`: no route matches the URL; no such target or action.
    case notFound(message: String)
    /// `io.hivekit.Daemon.NotExported`: the route or action is not callable from outside.
    case notExported(message: String)
    /// `io.hivekit.Daemon.CallFailed`: the handler threw, ran past the event budget, or
    /// returned what JSON cannot carry.
    case callFailed(module: String?, message: String)

    /// The error's fully qualified name.
    var name: String {
        switch self {
        case .interfaceNotFound: "org.varlink.service.InterfaceNotFound"
        case .methodNotFound: "org.varlink.service.MethodNotFound"
        case .invalidParameter: "org.varlink.service.InvalidParameter"
        case .expectedMore: "org.varlink.service.ExpectedMore"
        case .permissionDenied: "io.hivekit.Daemon.PermissionDenied"
        case .configurationInvalid: "io.hivekit.Daemon.ConfigurationInvalid"
        case .reloadFailed: "io.hivekit.Daemon.ReloadFailed"
        case .eventRefused: "io.hivekit.Daemon.EventRefused"
        case .limitExceeded: "io.hivekit.Daemon.LimitExceeded"
        case .unavailable: "io.hivekit.Daemon.Unavailable"
        case .notFound: "io.hivekit.Daemon.NotFound"
        case .notExported: "io.hivekit.Daemon.NotExported"
        case .callFailed: "io.hivekit.Daemon.CallFailed"
        }
    }

    /// The error `name` names, with `parameters`: what `ctl` reads from an error reply.
    /// `nil` for a name this interface does not define, or for parameters the error
    /// cannot go without.
    init?(name: String, parameters p: Parameters) {
        switch name {
        case "org.varlink.service.InterfaceNotFound":
            guard let interface = p.interface else { return nil }
            self = .interfaceNotFound(interface)
        case "org.varlink.service.MethodNotFound":
            guard let method = p.method else { return nil }
            self = .methodNotFound(method)
        case "org.varlink.service.InvalidParameter":
            guard let parameter = p.parameter else { return nil }
            self = .invalidParameter(parameter)
        case "org.varlink.service.ExpectedMore":
            self = .expectedMore
        case "io.hivekit.Daemon.PermissionDenied":
            self = .permissionDenied
        case "io.hivekit.Daemon.ConfigurationInvalid":
            guard let file = p.file, let message = p.message else { return nil }
            self = .configurationInvalid(file: file, line: p.line, message: message)
        case "io.hivekit.Daemon.ReloadFailed":
            guard let module = p.module, let event = p.event, let message = p.message else { return nil }
            self = .reloadFailed(module: module, event: event, message: message)
        case "io.hivekit.Daemon.EventRefused":
            guard let event = p.event, let message = p.message else { return nil }
            self = .eventRefused(event: event, message: message)
        case "io.hivekit.Daemon.LimitExceeded":
            guard let parameter = p.parameter, let limit = p.limit, let message = p.message else { return nil }
            self = .limitExceeded(parameter: parameter, limit: limit, message: message)
        case "io.hivekit.Daemon.Unavailable":
            guard let message = p.message else { return nil }
            self = .unavailable(message: message)
        case "io.hivekit.Daemon.NotFound":
            guard let message = p.message else { return nil }
            self = .notFound(message: message)
        case "io.hivekit.Daemon.NotExported":
            guard let message = p.message else { return nil }
            self = .notExported(message: message)
        case "io.hivekit.Daemon.CallFailed":
            guard let message = p.message else { return nil }
            self = .callFailed(module: p.module, message: message)
        default:
            return nil
        }
    }

    /// The parameters of every error, as one object: each error sets its own fields.
    struct Parameters: Codable, Sendable {
        var interface: String?
        var method: String?
        var parameter: String?
        var limit: Int?
        var file: String?
        var line: Int?
        var module: String?
        var event: String?
        var message: String?
    }

    /// The error's parameters, as its reply carries them.
    var parameters: Parameters {
        var parameters = Parameters()
        switch self {
        case .interfaceNotFound(let interface): parameters.interface = interface
        case .methodNotFound(let method): parameters.method = method
        case .invalidParameter(let parameter): parameters.parameter = parameter
        case .expectedMore, .permissionDenied: break
        case .configurationInvalid(let file, let line, let message):
            (parameters.file, parameters.line, parameters.message) = (file, line, message)
        case .reloadFailed(let module, let event, let message):
            (parameters.module, parameters.event, parameters.message) = (module, event, message)
        case .eventRefused(let event, let message):
            (parameters.event, parameters.message) = (event, message)
        case .limitExceeded(let parameter, let limit, let message):
            (parameters.parameter, parameters.limit, parameters.message) = (parameter, limit, message)
        case .unavailable(let message), .notFound(let message), .notExported(let message):
            parameters.message = message
        case .callFailed(let module, let message):
            (parameters.module, parameters.message) = (module, message)
        }
        return parameters
    }

    private struct Message: Encodable {
        let error: String
        let parameters: Parameters
    }

    /// The reply message, NUL-terminated.
    var encoded: [UInt8] {
        VarlinkCoding.encode(Message(error: name, parameters: parameters))
    }
}
