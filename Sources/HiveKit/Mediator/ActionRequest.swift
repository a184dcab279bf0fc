/// What an action handler is given (CTMediator's `params`): the target, the action and
/// the caller's parameters.
public struct ActionRequest: Sendable {
    /// The target: the module offering the action.
    public let target: String
    /// The action's name.
    public let action: String
    /// The caller's parameters.
    public let parameters: [String: any Sendable]

    /// A request for `action` of `target`.
    public init(target: String, action: String, parameters: [String: any Sendable] = [:]) {
        self.target = target
        self.action = action
        self.parameters = parameters
    }

    /// The parameter named `name`, if present.
    public subscript(_ name: String) -> (any Sendable)? { parameters[name] }

    /// The parameter named `name` as a `Value`.
    ///
    /// ```swift
    /// let region = try request.parameter("region", as: String.self)
    /// ```
    /// - Throws: ``HiveError`` `.invalidParameter` when it is missing or of another type.
    public func parameter<Value>(_ name: String, as type: Value.Type = Value.self) throws(HiveError) -> Value {
        guard let raw = parameters[name] else {
            throw HiveError(.invalidParameter, module: target, "action '\(action)' needs parameter '\(name)'")
        }
        guard let value = raw as? Value else {
            throw HiveError(
                .invalidParameter, module: target,
                "action '\(action)': parameter '\(name)' is a \(Swift.type(of: raw)), not a \(Value.self)")
        }
        return value
    }
}
