import HiveKit

extension DaemonControl {
    /// `OpenURL` and `PerformAction`: an exported route or action called from outside the
    /// process, on a task of its own under the event budget (``ControlCall``); answered
    /// later. Refused at once, as other control calls are then, once the daemon is stopping.
    func answerCall(_ call: VarlinkCall, connection: UInt64, server: ControlServer) throws(VarlinkError) -> Answer {
        let hive = hive
        let what: String
        let body: @Sendable () async -> [UInt8]
        switch call.name {
        case "OpenURL":
            let parameters = try call.parameters(DaemonAPI.OpenURLParameters.self)
            guard !parameters.url.isEmpty else { throw .invalidParameter("url") }
            let (url, values) = (parameters.url, parameters.parameters ?? [:])
            what = "OpenURL '\(url)'"
            body = {
                do {
                    let (handled, result) = try await hive.openFromOutside(url, parameters: values)
                    let json = try result.flatMap(Self.json)
                    return VarlinkCoding.reply(DaemonAPI.OpenURLResult(handled: handled, result: json))
                } catch {
                    return Self.failure(error, method: "OpenURL").encoded
                }
            }
        default:
            let parameters = try call.parameters(DaemonAPI.PerformActionParameters.self)
            guard !parameters.target.isEmpty else { throw .invalidParameter("target") }
            guard !parameters.action.isEmpty else { throw .invalidParameter("action") }
            let (target, action, values) = (parameters.target, parameters.action, parameters.parameters ?? [:])
            what = "PerformAction \(target).\(action)"
            body = {
                do {
                    let result = try await hive.performFromOutside(target: target, action: action, parameters: values)
                    return VarlinkCoding.reply(DaemonAPI.PerformActionResult(result: try Self.json(result)))
                } catch {
                    return Self.failure(error, method: "PerformAction").encoded
                }
            }
        }
        if daemon.state.withLock({ $0.lifecycle.isStopping }) {
            throw .eventRefused(event: call.name, message: DaemonLifecycle.stoppingRefusal)
        }
        ControlCall.run(
            what, within: hive.defaultBudget, logger: daemon.logger,
            reply: { [weak server] bytes in server?.reply(bytes, to: connection) }, body)
        return .later
    }

    /// A handler's result as JSON; `nil` for `()` or `nil`.
    ///
    /// - Throws: ``/HiveKit/HiveError`` `.typeMismatch` saying why it has no JSON form.
    private static func json(_ result: any Sendable) throws(HiveError) -> JSONValue? {
        do {
            let value = try JSONValue(converting: result)
            return value == .null ? nil : value
        } catch {
            throw HiveError(
                .typeMismatch,
                "the result cannot be sent as JSON (strings, numbers, booleans, arrays and maps of those, or an Encodable value): \(error.reason)")
        }
    }

    /// The error reply for what an outside call threw.
    private static func failure(_ error: any Error, method: String) -> VarlinkError {
        switch error {
        case OutsideCall.Refusal.notFound(let message): return .notFound(message: message)
        case OutsideCall.Refusal.notExported(let message): return .notExported(message: message)
        case let error as HiveError where error.code == .refusedEvent:
            return .eventRefused(event: method, message: DaemonLifecycle.stoppingRefusal)
        case let error as HiveError: return .callFailed(module: error.module, message: error.message)
        default: return .callFailed(module: nil, message: "\(error)")
        }
    }
}
