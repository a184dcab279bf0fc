import HiveKit
/// A control-socket call that runs on the daemon's event loop, in turn with signals'
/// requests, and the reply it owes when done.
final class ControlRequest: Sendable, Equatable {
    /// What the call asks for.
    enum Action: Sendable {
        /// `Reload`: the same reload as `SIGHUP`.
        case reload
        /// `SendEvent`: deliver a custom event.
        case send(HiveEvent)
    }

    let action: Action
    private let completion: @Sendable ([UInt8]) -> Void

    /// A request whose encoded reply goes to `completion` (called once, on the event loop).
    init(_ action: Action, completion: @escaping @Sendable ([UInt8]) -> Void) {
        self.action = action
        self.completion = completion
    }

    /// Sends the reply.
    func complete(_ reply: [UInt8]) {
        completion(reply)
    }

    static func == (lhs: ControlRequest, rhs: ControlRequest) -> Bool { lhs === rhs }
}

extension ControlRequest.Action {
    /// The error that refuses this call, saying why: `ReloadFailed` for `Reload`,
    /// `EventRefused` for `SendEvent`.
    func refused(_ message: String) -> VarlinkError {
        switch self {
        case .reload: .reloadFailed(module: "", event: "reload", message: message)
        case .send(let event): .eventRefused(event: "\(event)", message: message)
        }
    }
}
