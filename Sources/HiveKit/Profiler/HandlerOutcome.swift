/// How a handler call ended.
public enum HandlerOutcome: String, Sendable, Hashable, CustomStringConvertible {
    /// It returned.
    case succeeded
    /// It threw.
    case failed
    /// It ran past its budget at a stop and the hive went on without it.
    case abandoned

    /// The outcome's name (`succeeded`, `failed`, `abandoned`).
    public var description: String { rawValue }
}
