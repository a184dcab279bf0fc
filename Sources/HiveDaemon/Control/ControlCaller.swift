/// A control-socket call (`Reload`, `SendEvent`) waiting for the daemon's event loop: where
/// its reply goes once the work is done, or once the call is refused.
final class ControlCaller: Sendable, Equatable {
    private let completion: @Sendable ([UInt8]) -> Void

    /// A caller whose encoded reply goes to `completion`, called once, from any thread.
    init(_ completion: @escaping @Sendable ([UInt8]) -> Void) {
        self.completion = completion
    }

    /// Sends the reply.
    func reply(_ bytes: [UInt8]) {
        completion(bytes)
    }

    static func == (lhs: ControlCaller, rhs: ControlCaller) -> Bool { lhs === rhs }
}
