/// A test's own error, with the text it was made with as its description.
public struct TestFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let text: String
    /// A failure saying `text`.
    public init(_ text: String) { self.text = text }
    /// The text.
    public var description: String { text }
}
