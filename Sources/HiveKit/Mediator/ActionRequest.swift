/// What an action handler is given (CTMediator's `params`): the target, the action and
/// the caller's parameters.
public struct ActionRequest: Sendable {
    /// The target: the module offering the action.
    public let target: String
    /// The action's name.
    public let action: String
    /// The caller's parameters; for a call from a URL, the URL's query items (strings),
    /// which win over the caller's extra values of the same name.
    public let parameters: [String: any Sendable]
    /// The URL the call came from (``Mediator/perform(url:extras:)``); `nil` for a call
    /// from code.
    public let url: String?
    /// The names in ``parameters`` that came as text (a URL's query, a call from outside
    /// the process), whose string values ``parameter(_:as:)`` parses.
    let queryNames: Set<String>
    /// Whether a target type's instance made for this call is kept for later calls
    /// (CTMediator's `shouldCacheTarget:`).
    let cachesTarget: Bool

    init(
        target: String, action: String, parameters: [String: any Sendable], url: String?, queryNames: Set<String>,
        cachesTarget: Bool = false
    ) {
        self.target = target
        self.action = action
        self.parameters = parameters
        self.url = url
        self.queryNames = queryNames
        self.cachesTarget = cachesTarget
    }

    /// The parameter named `name`, if present.
    public subscript(_ name: String) -> (any Sendable)? { parameters[name] }

    /// The parameter named `name` as a `Value`. A value from a URL's query (or a call
    /// from outside the process) is a string, parsed when `Value` is not `String` (`Int`, `Double`, `Bool`, any
    /// `LosslessStringConvertible`); a value from code must be a `Value` itself.
    ///
    /// ```swift
    /// let region = try request.parameter("region", as: String.self)
    /// ```
    /// - Throws: ``HiveError`` `.invalidParameter` when it is missing or of another type.
    public func parameter<Value>(_ name: String, as type: Value.Type = Value.self) throws(HiveError) -> Value {
        let raw = parameters[name]
        if let raw, let value = ParameterValue.convert(raw, to: Value.self, parsing: queryNames.contains(name)) {
            return value
        }
        throw ParameterValue.error(name, raw, as: Value.self, in: "action '\(action)'", module: target)
    }
}
